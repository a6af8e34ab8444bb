#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type nudge_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// sqlite3_db_config is variadic, which Swift cannot call. Closing the last connection would
// otherwise checkpoint the write-ahead log into the database file.
static inline int nudge_sqlite_disable_checkpoint_on_close(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}

// SQLite's automatic checkpoint is a wal hook that checkpoints inside the commit taking the log
// past 1,000 pages. This one replaces it and only counts the log's pages, into *pages, so that
// the connection's owner checkpoints when it chooses.
static int nudge_sqlite_count_log_pages(void *pages, sqlite3 *db, const char *name, int count) {
    (void)db;
    (void)name;
    *(int *)pages = count;
    return SQLITE_OK;
}

static inline void nudge_sqlite_defer_checkpoints(sqlite3 *db, int *pages) {
    sqlite3_wal_hook(db, nudge_sqlite_count_log_pages, pages);
}
