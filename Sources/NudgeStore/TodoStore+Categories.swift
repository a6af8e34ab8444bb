import Foundation
import NudgeCore
import NudgeSQLite

extension TodoStore {
    /// Every category by name, with how many todos (pending and done) are in it.
    public func categories() throws(StoreError) -> [(category: Category, todoCount: Int)] {
        try perform {
            try db.query("""
                SELECT c.id, c.name, c.icon, count(t.id) AS todo_count FROM categories c
                LEFT JOIN todos t ON t.category_id = c.id
                GROUP BY c.id ORDER BY c.name COLLATE NOCASE
                """) { row in
                (Category(id: row.int64("id"), name: row.text("name") ?? "", icon: row.text("icon") ?? Category.defaultIcon),
                 Int(row.int64("todo_count")))
            }
        }
    }

    public func category(named name: String) throws(StoreError) -> Category {
        try perform {
            let rows = try db.query("SELECT id, name, icon FROM categories WHERE name = ?", [.text(name)]) {
                Category(id: $0.int64("id"), name: $0.text("name") ?? "", icon: $0.text("icon") ?? Category.defaultIcon)
            }
            guard let category = rows.first else { throw StoreError.noSuchCategory(name) }
            return category
        }
    }

    public func addCategory(name: String, icon: String?, now: Date) throws(StoreError) -> Category {
        try write {
            if try db.scalar("SELECT 1 FROM categories WHERE name = ?", [.text(name)]) != nil {
                throw StoreError.categoryExists(name)
            }
            try db.run("INSERT INTO categories (name, icon, created_at) VALUES (?, ?, ?)",
                       [.text(name), .text(icon ?? Category.defaultIcon), .integer(Int64(now.timeIntervalSince1970))])
            return Category(id: db.lastInsertRowID, name: name, icon: icon ?? Category.defaultIcon)
        }
    }

    public func renameCategory(_ old: String, to new: String) throws(StoreError) -> Category {
        try write {
            let id = try categoryID(named: old)
            if let other = try db.scalar("SELECT id FROM categories WHERE name = ?", [.text(new)])?.int64, other != id {
                throw StoreError.categoryExists(new)
            }
            try db.run("UPDATE categories SET name = ? WHERE id = ?", [.text(new), .integer(id)])
            // Rules may be set per category name.
            try replan(ids: db.query("SELECT id FROM todos WHERE category_id = ?", [.integer(id)]) { $0.int64("id") })
            return try category(named: new)
        }
    }

    /// Deletes the category; its todos stay, without a category. Returns how many there were.
    public func deleteCategory(_ name: String, now: Date) throws(StoreError) -> Int {
        try write {
            let id = try categoryID(named: name)
            let members = try db.query("SELECT id FROM todos WHERE category_id = ?", [.integer(id)]) { $0.int64("id") }
            try db.run("UPDATE todos SET category_id = NULL, updated_at = ? WHERE category_id = ?",
                       [.integer(Int64(now.timeIntervalSince1970)), .integer(id)])
            let moved = db.changes
            try replan(ids: members)
            try db.run("DELETE FROM categories WHERE id = ?", [.integer(id)])
            return moved
        }
    }

    func categoryID(named name: String) throws -> Int64 {
        guard let id = try db.scalar("SELECT id FROM categories WHERE name = ?", [.text(name)])?.int64 else {
            throw StoreError.noSuchCategory(name)
        }
        return id
    }
}
