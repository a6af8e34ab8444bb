/// The schema, as named steps applied in order and recorded in `nudge_migrations`, so that an
/// older database upgrades in place and one with steps this version does not know is refused.
struct Migration {
    let name: String
    let sql: String
}

enum Schema {
    /// Written into the SQLite header so that a Nudge database is recognised as one ("NUDG").
    static let applicationID: Int32 = 0x4E55_4447

    static let migrations: [Migration] = [
        Migration(name: "001-todos-and-categories", sql: """
            CREATE TABLE categories (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                icon TEXT NOT NULL,
                created_at INTEGER NOT NULL
            );
            CREATE TABLE todos (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                uuid TEXT NOT NULL UNIQUE,
                title TEXT NOT NULL CHECK (length(title) > 0),
                notes TEXT,
                due_at INTEGER,
                due_day TEXT,
                due_zone TEXT,
                priority INTEGER NOT NULL DEFAULT 1 CHECK (priority BETWEEN 0 AND 2),
                category_id INTEGER REFERENCES categories(id) ON DELETE SET NULL,
                completed_at INTEGER,
                created_at INTEGER NOT NULL,
                updated_at INTEGER NOT NULL,
                CHECK (due_at IS NULL OR due_day IS NULL)
            );
            CREATE INDEX todos_by_state_and_due ON todos(completed_at IS NOT NULL, due_at, due_day);
            CREATE INDEX todos_by_category ON todos(category_id);
            """),
    ]
}
