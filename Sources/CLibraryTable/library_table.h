// The C half of NudgePlatform's `CLibrary`, for the shims of the libraries Nudge opens with
// dlopen on first use (CSystemd, CICal, CCurl), so that a command that never needs one does
// not map it. Each shim lists its functions in an X-macro and declares its table with
// NUDGE_LIBRARY_TABLE; `CLibrary.open` fills the table with dlsym.
#ifndef NUDGE_LIBRARY_TABLE_H
#define NUDGE_LIBRARY_TABLE_H

#define NUDGE_LIBRARY_FIELD(name) __typeof__(name) *name;
#define NUDGE_LIBRARY_SYMBOL(name) #name "\0"

/// Declares `type`, a struct with each function of `list` as a pointer under its own name, and
/// `type##_symbols()`, their names in the same order, each ended by a NUL, then an empty name.
#define NUDGE_LIBRARY_TABLE(type, list) \
    typedef struct { list(NUDGE_LIBRARY_FIELD) } type; \
    static inline const char *type##_symbols(void) { return list(NUDGE_LIBRARY_SYMBOL); }

#endif
