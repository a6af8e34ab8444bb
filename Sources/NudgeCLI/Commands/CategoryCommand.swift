import Foundation
import NudgeCore
import NudgeStore

enum CategoryCommand: Command {
    static let icon = ValueOption("icon", "ICON", "With add: a freedesktop icon name for its notifications (default \(Category.defaultIcon))", parse: iconName)
    static let json = Flag("json", "Print the categories (list) or the one changed as JSON")
    static let name = "category"
    static let declaration = CommandDeclaration(name, "Add, list, rename and delete categories", json, subcommands: [
        Subcommand("add", "Add a category", Operand("NAME", .text), icon),
        Subcommand("list", "List the categories with their todo counts").aliased("ls"),
        Subcommand("rename", "Rename a category", Operand("OLD", .category), Operand("NEW", .text)),
        Subcommand("delete", "Delete a category; its todos stay, without one", Operand("NAME", .category)).aliased("rm"),
    ])
    static let jsonOutput = """
        category list --json prints an array of categories by name, each an object:
          id      its id
          name    its name
          icon    the freedesktop icon name its notifications show
          todos   how many todos are in it, pending and done
        add and rename print the category as such an object; delete prints {name (the
        category deleted), todos (how many todos it held, now without a category)}.
        """
    static let discussion = """
        Names are unique, ignoring case, and hold no comma (iCalendar would read "a,b" as two
        categories). Deleting a category keeps its todos, without a category.

        Examples:
          nudge category add work --icon briefcase
          nudge category rename work office
        """

    static func run(_ arguments: Arguments, context: Context) throws(CLIError) {
        let words = arguments.positionals
        // The store is opened once the words are read: a usage error makes no database file.
        do {
            switch words[0] {
            case "add":
                let name = try newCategoryName(words[1])
                let icon = try arguments[Self.icon]
                let store = try context.store(.write)
                let category = try store.addCategory(name: name, icon: icon, now: context.now)
                if arguments[Self.json] { return context.printJSON(json(category, todos: 0)) }
                context.print(Terminal.visible("Added category \(category.name) (icon \(category.icon))"))
            case "list", "ls":
                let categories = try context.store(.read).categories()
                if arguments[Self.json] {
                    context.printJSON(.array(categories.map { json($0, todos: $1) }))
                } else if categories.isEmpty {
                    context.print("No categories yet. Add one with: nudge category add work")
                } else {
                    let names = categories.map { Terminal.visible($0.category.name) }
                    let counts = categories.map { "\($0.todoCount) todo\($0.todoCount == 1 ? "" : "s")" }
                    let nameWidth = names.map(displayWidth).max() ?? 0
                    let countWidth = counts.map(\.count).max() ?? 0
                    for (index, (category, _)) in categories.enumerated() {
                        let padding = String(repeating: " ", count: nameWidth - displayWidth(names[index]))
                        context.print("  " + names[index] + padding + "  " + counts[index].padding(to: countWidth) + "  icon " + Terminal.visible(category.icon))
                    }
                }
            case "rename":
                let names = words
                let store = try context.storeOfExisting()
                let category = try store.renameCategory(categoryName(names[1]), to: newCategoryName(names[2]))
                if arguments[Self.json] {
                    let todos = try store.categories().first { $0.category.id == category.id }?.todoCount ?? 0
                    return context.printJSON(json(category, todos: todos))
                }
                context.print(Terminal.visible("Renamed category \(names[1]) to \(category.name)"))
            case "delete", "rm":
                let name = try categoryName(words[1])
                let moved = try context.storeOfExisting().deleteCategory(name, now: context.now)
                if arguments[Self.json] { return context.printJSON(.object([("name", .string(name)), ("todos", .int(Int64(moved)))])) }
                context.print("Deleted category " + Terminal.visible(name) + (moved == 0 ? "" : "; \(moved) todo\(moved == 1 ? "" : "s") no longer \(moved == 1 ? "has" : "have") a category"))
            default:
                throw unknownSubcommand(words[0])
            }
        } catch {
            throw CLIError(error)
        }
    }

    static func json(_ category: Category, todos: Int) -> JSON {
        .object([("id", .int(category.id)), ("name", .string(category.name)), ("icon", .string(category.icon)),
                 ("todos", .int(Int64(todos)))])
    }

    static func iconName(_ text: String) throws(CLIError) -> String {
        let allowed = text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
        guard !text.isEmpty, allowed else {
            throw .usage("'\(text)' is not an icon name; use a freedesktop icon name like task-due or user-home")
        }
        return text
    }
}
