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
        Migration(name: "002-reminders-and-recurrence", sql: """
            ALTER TABLE todos ADD COLUMN repeat_rule TEXT;
            ALTER TABLE todos ADD COLUMN repeat_from TEXT CHECK (repeat_from IN ('due', 'completion'));
            -- The series' wall-clock DTSTART, e.g. 2027-03-28T02:30.
            ALTER TABLE todos ADD COLUMN repeat_start TEXT;
            ALTER TABLE todos ADD COLUMN default_reminders INTEGER NOT NULL DEFAULT 1;
            ALTER TABLE todos ADD COLUMN snoozed_until INTEGER;
            -- Reminders at or before this moment have fired or were passed over.
            ALTER TABLE todos ADD COLUMN reminded_through INTEGER;
            UPDATE todos SET reminded_through = CAST(strftime('%s', 'now') AS INTEGER);
            CREATE TABLE custom_reminders (
                id INTEGER PRIMARY KEY,
                todo_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
                before_days INTEGER,
                before_seconds INTEGER,
                at INTEGER,
                CHECK ((at IS NULL) != (before_days IS NULL))
            );
            CREATE INDEX custom_reminders_by_todo ON custom_reminders(todo_id);
            -- The planned reminders of every todo, kept up to date on each change, so that the
            -- next one is an index lookup.
            CREATE TABLE schedule (
                todo_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
                at INTEGER NOT NULL,
                nominal INTEGER NOT NULL,
                rule TEXT NOT NULL,
                PRIMARY KEY (todo_id, at)
            ) WITHOUT ROWID;
            CREATE INDEX schedule_by_time ON schedule(at);
            -- What fired: a todo's reminder (todo_id) or the digest (todo_id NULL).
            CREATE TABLE firings (
                id INTEGER PRIMARY KEY,
                todo_id INTEGER REFERENCES todos(id) ON DELETE CASCADE,
                rule TEXT NOT NULL,
                at INTEGER NOT NULL,
                fired_at INTEGER NOT NULL
            );
            CREATE UNIQUE INDEX firings_once ON firings(coalesce(todo_id, 0), rule, at);
            CREATE TABLE completions (
                id INTEGER PRIMARY KEY,
                todo_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
                due_at INTEGER,
                due_day TEXT,
                completed_at INTEGER NOT NULL
            );
            CREATE INDEX completions_by_todo ON completions(todo_id);
            CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            -- The earliest pending due decides the first day the digest has something to say.
            CREATE INDEX todos_pending_due_at ON todos(due_at) WHERE completed_at IS NULL;
            CREATE INDEX todos_pending_due_day ON todos(due_day) WHERE completed_at IS NULL;
            """),
        Migration(name: "003-deliveries", sql: """
            -- The service's outbox: each notification to show, written in the same transaction
            -- that records its reminders as fired, so that a crash neither loses nor repeats it,
            -- and the notification id a server gave it, so that buttons work after a restart.
            CREATE TABLE deliveries (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('reminder', 'group', 'digest', 'catch-up')),
                todo_ids TEXT NOT NULL,
                rule TEXT NOT NULL,
                due_at INTEGER NOT NULL,
                state TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'shown', 'closed')),
                server TEXT,
                notification_id INTEGER,
                created_at INTEGER NOT NULL,
                shown_at INTEGER
            );
            CREATE INDEX deliveries_by_state ON deliveries(state);
            CREATE INDEX deliveries_by_notification ON deliveries(notification_id);
            """),
        Migration(name: "004-database-identity", sql: """
            -- Names this database in the service's journal entries, so that a todo's history
            -- is never another database's todo of the same id.
            INSERT INTO settings (key, value) VALUES ('database_id', lower(hex(randomblob(16))));
            """),
        Migration(name: "005-kept-properties", sql: """
            -- What other programs keep with a todo that Nudge has no field for (iCalendar
            -- properties, Taskwarrior tags), as a JSON object by format, given back on export.
            ALTER TABLE todos ADD COLUMN kept TEXT;
            """),
        Migration(name: "006-vdir-sync", sql: """
            -- Raised by every change a file would show (the service's firing of a reminder
            -- too, through reminded_through), so that a sync pass finds what changed here
            -- without rendering every todo.
            ALTER TABLE todos ADD COLUMN sync_version INTEGER NOT NULL DEFAULT 0;
            CREATE TRIGGER todos_sync_version AFTER UPDATE OF uuid, title, notes, due_at, due_day, due_zone,
                priority, category_id, completed_at, created_at, updated_at, repeat_rule, repeat_from,
                repeat_start, default_reminders, snoozed_until, reminded_through, kept ON todos
            BEGIN
                UPDATE todos SET sync_version = OLD.sync_version + 1 WHERE id = NEW.id;
            END;
            CREATE TRIGGER custom_reminders_added_sync_version AFTER INSERT ON custom_reminders
            BEGIN
                UPDATE todos SET sync_version = sync_version + 1 WHERE id = NEW.todo_id;
            END;
            CREATE TRIGGER custom_reminders_removed_sync_version AFTER DELETE ON custom_reminders
            BEGIN
                UPDATE todos SET sync_version = sync_version + 1 WHERE id = OLD.todo_id;
            END;
            CREATE TRIGGER categories_renamed_sync_version AFTER UPDATE OF name ON categories
            BEGIN
                UPDATE todos SET sync_version = sync_version + 1 WHERE category_id = NEW.id;
            END;
            -- One row for each file of a vdir as the last pass left it: its name (href), its
            -- etag (mtime in nanoseconds and inode, as vdirsyncer's), a hash of its bytes, the
            -- todo it holds (NULL for a file Nudge leaves alone, such as a VEVENT) and the
            -- todo's sync_version when both sides last agreed. Small rows: a pass reads them all.
            CREATE TABLE sync_items (
                folder TEXT NOT NULL,
                href TEXT NOT NULL,
                etag TEXT NOT NULL,
                hash TEXT NOT NULL,
                uuid TEXT,
                local_version INTEGER,
                PRIMARY KEY (folder, href)
            ) WITHOUT ROWID;
            -- What a pass compares with every todo's sync_version.
            CREATE INDEX sync_items_by_uuid ON sync_items(folder, uuid, local_version);
            -- The text both sides last agreed on, the base of a three-way merge: read only for
            -- the files that changed.
            CREATE TABLE sync_bases (
                folder TEXT NOT NULL,
                href TEXT NOT NULL,
                base TEXT NOT NULL,
                UNIQUE (folder, href)
            );
            """),
        Migration(name: "007-sync-parent", sql: """
            -- A version written here that no other machine is known to have built on keeps the
            -- last version that came from elsewhere: vdirsyncer may put another machine's
            -- concurrent edit over the file, and that edit is merged against this one.
            ALTER TABLE sync_bases ADD COLUMN parent TEXT;
            """),
        Migration(name: "008-snoozed-index", sql: """
            -- The todos snoozed, which the service compares after each change to run the
            -- on_snooze hook: few rows, read without a scan of every todo.
            CREATE INDEX todos_snoozed ON todos(snoozed_until) WHERE snoozed_until IS NOT NULL;
            """),
        Migration(name: "009-list-order", sql: """
            -- The title as the list sorts it (TodoStore.titleKey: lower case, composed), written
            -- with every title, so that an index can hold the list's order.
            ALTER TABLE todos ADD COLUMN title_key TEXT NOT NULL DEFAULT '';
            UPDATE todos SET title_key = nudge_title_key(title);
            -- The pending todos in the order `nudge list` shows them, in three runs (timed,
            -- all-day, unscheduled) merged while listing, with what a row of the list shows:
            -- the list reads them in order from the index alone, without sorting 100,000 rows.
            CREATE INDEX todos_pending_timed_in_order ON todos(due_at, priority DESC, title_key, id, title, category_id)
                WHERE completed_at IS NULL AND due_at IS NOT NULL;
            CREATE INDEX todos_pending_days_in_order ON todos(due_day, priority DESC, title_key, id, title, category_id)
                WHERE completed_at IS NULL AND due_day IS NOT NULL;
            CREATE INDEX todos_pending_unscheduled_in_order ON todos(priority DESC, title_key, id, title, category_id)
                WHERE completed_at IS NULL AND due_at IS NULL AND due_day IS NULL;
            """),
        Migration(name: "010-repeat-dates", sql: """
            -- A series' EXDATEs and RDATEs (Repetition.datesText): `-2026-12-11T09:00 +2026-12-20T09:00`.
            ALTER TABLE todos ADD COLUMN repeat_dates TEXT;
            DROP TRIGGER todos_sync_version;
            CREATE TRIGGER todos_sync_version AFTER UPDATE OF uuid, title, notes, due_at, due_day, due_zone,
                priority, category_id, completed_at, created_at, updated_at, repeat_rule, repeat_from,
                repeat_start, repeat_dates, default_reminders, snoozed_until, reminded_through, kept ON todos
            BEGIN
                UPDATE todos SET sync_version = OLD.sync_version + 1 WHERE id = NEW.id;
            END;
            """),
        Migration(name: "011-due-wall-time", sql: """
            -- The time typed for a one-off todo's due while a DST gap keeps the due off it
            -- (`02:30` for a due that is 03:30 the night 02:00 skips to 03:00). It changes only
            -- with the due, whose columns already count as a change for sync.
            ALTER TABLE todos ADD COLUMN due_wall_time TEXT;
            """),
        Migration(name: "012-delivery-todo-due", sql: """
            -- A reminder's todo's due when it fired (due_at as text, or due_day; '' for none): a
            -- notification whose todo was rescheduled since is withdrawn. NULL for older rows.
            ALTER TABLE deliveries ADD COLUMN todo_due TEXT;
            """),
        Migration(name: "013-tags", sql: """
            -- A todo's tags in the order added (position), each as typed and as compared
            -- (folded: composed, lower case; Tag.folded). `list +tag` finds its todos through
            -- the index on folded; a listed todo's tags are read by its id, in order.
            CREATE TABLE todo_tags (
                todo_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                tag TEXT NOT NULL,
                folded TEXT NOT NULL,
                PRIMARY KEY (todo_id, position)
            ) WITHOUT ROWID;
            CREATE UNIQUE INDEX todo_tags_by_tag ON todo_tags(folded, todo_id);
            CREATE TRIGGER todo_tags_added_sync_version AFTER INSERT ON todo_tags
            BEGIN
                UPDATE todos SET sync_version = sync_version + 1 WHERE id = NEW.todo_id;
            END;
            CREATE TRIGGER todo_tags_removed_sync_version AFTER DELETE ON todo_tags
            BEGIN
                UPDATE todos SET sync_version = sync_version + 1 WHERE id = OLD.todo_id;
            END;
            """),
        Migration(name: "014-subtask-parent", sql: """
            -- A subtask's parent, by its uuid rather than its id: a subtask read from a file or
            -- a sync pass before its parent keeps the link and joins the parent when it
            -- arrives; until then, and when the parent is deleted, it is a todo of its own.
            ALTER TABLE todos ADD COLUMN parent_uuid TEXT;
            CREATE INDEX todos_by_parent ON todos(parent_uuid) WHERE parent_uuid IS NOT NULL;
            CREATE TRIGGER todos_parent_sync_version AFTER UPDATE OF parent_uuid ON todos
            BEGIN
                UPDATE todos SET sync_version = OLD.sync_version + 1 WHERE id = NEW.id;
            END;
            """),
        Migration(name: "015-todo-after", sql: """
            -- A todo (todo_id) comes after each of its blockers (blocker_id): while one of them
            -- is pending the todo is blocked and its reminders are held. Read both ways: a
            -- todo's blockers by the primary key, the todos a blocker holds by the index.
            CREATE TABLE todo_after (
                todo_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
                blocker_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
                PRIMARY KEY (todo_id, blocker_id),
                CHECK (todo_id != blocker_id)
            ) WITHOUT ROWID;
            CREATE INDEX todo_after_by_blocker ON todo_after(blocker_id, todo_id);
            CREATE TRIGGER todo_after_added_sync_version AFTER INSERT ON todo_after
            BEGIN
                UPDATE todos SET sync_version = sync_version + 1 WHERE id = NEW.todo_id;
            END;
            CREATE TRIGGER todo_after_removed_sync_version AFTER DELETE ON todo_after
            BEGIN
                UPDATE todos SET sync_version = sync_version + 1 WHERE id = OLD.todo_id;
            END;
            """),
        Migration(name: "016-todo-after-waiting", sql: """
            -- A blocker a sync pass named that is not in the store yet, by its uuid: linked in
            -- todo_after when it arrives, and written back with the todo meanwhile, so that
            -- vdirsyncer bringing the blocked todo's file before its blocker's loses nothing.
            CREATE TABLE todo_after_waiting (
                todo_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
                blocker_uuid TEXT NOT NULL,
                PRIMARY KEY (todo_id, blocker_uuid)
            ) WITHOUT ROWID;
            """),
    ]
}
