import Glibc
import NudgeHelp

/// The topics of `nudge help TOPIC`, which the man page gives a section each: the forms the
/// placeholders of the commands take, and what nudge reads from outside.
enum HelpTopics {
    static let all = [when, duration, rule, filter, exitStatus, environment, files, examples]

    static func named(_ name: String) -> HelpTopic? {
        all.first { $0.name == name }
    }

    static let when = HelpTopic(
        name: "when", heading: "DATES AND TIMES (WHEN)",
        abstract: "The forms of WHEN: 2026-12-24, tomorrow 9am, fri, in 2h, dec 24, ...",
        text: """
            WHEN names a day, or a day and a time of day, in the local time zone. Case does not
            matter and commas are ignored. A form without a time of day is all-day: due on
            that day, and reminded on it at [reminders] all_day_time of the config file. A time
            can follow a day (tomorrow 9am, fri at 14:00, dec 24 18:00) or come before it
            (9am tomorrow).
            """,
        entries: [
            HelpEntry("2026-12-24", "That day; 2026-12-24 09:30 and 2026-12-24T09:30 at that time."),
            HelpEntry("12/24, 24/12, 24.12., 12/24/2027", "A numeric date in the locale's order, month/day under en_US and day/month under de_DE ([display] date_format overrides it). Where the locale sets no order, as C, a date that reads both ways (3/4) is refused with the two readings; one that reads one way only (12/24) is taken."),
            HelpEntry("today, tomorrow, yesterday", "That day; tmrw and tmr are tomorrow."),
            HelpEntry("tonight", "Today at 20:00."),
            HelpEntry("mon ... sun", "The next such day after today: on a Friday, fri is a week later. Full names (friday) and tue, tues, thu, thur, thurs work too."),
            HelpEntry("this fri, next fri", "The Friday of this week, even if it has passed, or of next week. Weeks start on the locale's first weekday (Sunday under en_US, Monday under de_DE and C), or on [display] week_start."),
            HelpEntry("next week, next month", "The first day of next week, the 1st of next month."),
            HelpEntry("dec 24, 24 dec, december 24th", "The next December 24 that is today or later; with a year, dec 24 2027 or 24 dec 2027."),
            HelpEntry("9am, 9:30pm, 17:30, noon, midnight", "A time alone is the next such time: today if it is still ahead, else tomorrow (midnight alone is 00:00 tomorrow)."),
            HelpEntry("tomorrow 9am, fri at 14:00, tomorrow at 9", "A day and a time; a bare hour after at is that hour (at 9 is 09:00). With a day, noon is 12:00 and midnight the end of that day, 23:59."),
            HelpEntry("in 2h, in 3 days, +45m", "This long from now, a DURATION (see 'nudge help duration'); in 2 months and in 1 year add calendar months and years, in a week and in an hour work too."),
            HelpEntry("in 3 days at 9, in a week 9am", "That many days, weeks, months or years from today, at that time."),
            HelpEntry("eod, eow, eom, eoy", "23:59 today, on the last day of this week (as this fri counts weeks), on the last day of this month, on December 31; also end of day, end of week, and so on."),
        ],
        notes: """
            A time that a change to daylight saving time skips (02:30 on the night the clocks go
            forward) moves forward by the gap, to 03:30; a time that happens twice is the first
            of the two. Words stay English whatever the locale.
            """)

    static let duration = HelpTopic(
        name: "duration", heading: "DURATIONS (DURATION, OFFSET)",
        abstract: "The forms of DURATION and OFFSET: 10m, 2h, 1h30m, 3d, 1w",
        text: """
            A DURATION (postpone, snooze, upcoming --within) or an OFFSET (a reminder this long
            before the due: add --remind, remind --add) is a number and a unit, or several:
            10m, 2h, 1h30m, 3d, 1w, 2w3d. The units are m, min, minute(s); h, hr, hour(s); d,
            day(s); w, wk, week(s), each at most once, and spaces are allowed (1 h 30 m,
            2 hours). M is refused: minutes or months?

            A day is a calendar day: 1d keeps the time of day across changes to and from
            daylight saving time, while 24h is always 24 hours. A duration is at least a
            minute and at most 100 years.
            """)

    static let rule = HelpTopic(
        name: "rule", heading: "REPEAT RULES (RULE)",
        abstract: "The forms of RULE for --repeat: daily, weekdays, every 2 weeks, RRULE:...",
        text: """
            A repeating todo needs a due date. When it is marked done, it gets its next due and
            is open again. RULE, ignoring case, is one of:
            """,
        entries: [
            HelpEntry("daily, weekly, monthly, yearly", "Every day, week, month or year."),
            HelpEntry("weekdays, every weekday", "Monday to Friday."),
            HelpEntry("every N days|weeks|months|years", "Every N days, and so on; every week is weekly."),
            HelpEntry("hourly, every 2h, every 3 hours", "Every hour or N hours, at the due's minute. Needs a due with a time of day."),
            HelpEntry("every 2h between 09:00-18:00", "Only from the first hour up to, not including, the second: 09:00, 11:00, ..., 17:00; whole hours only."),
            HelpEntry("every mon,thu, every monday and thursday, weekly on tue", "On those weekdays; every 2 weeks on fri is every other Friday."),
            HelpEntry("every 2nd tue, first mon of the month", "That weekday of each month (the second Tuesday, not every other Tuesday)."),
            HelpEntry("last fri of month, every last fri", "The last Friday of each month."),
            HelpEntry("every month on the 15th, every 3 months on the last day", "That day of the month; a 31st skips shorter months."),
            HelpEntry("RRULE:...", "An RFC 5545 recurrence rule, as calendars write them: RRULE:FREQ=MONTHLY;BYDAY=1MO is the first Monday of each month, RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=10 ten Tuesdays and Thursdays. COUNT (at most 10000) and UNTIL end it; MINUTELY and SECONDLY rules, and a rule that never occurs, are refused."),
        ],
        notes: """
            A rule other than an hourly one may end in at TIME (every weekday at 9, last fri of
            month at 4pm), the time of day of the due: with --due it sets the time of that day,
            and without --due the todo is due at the rule's first occurrence from now on.

            With --repeat-from due (the default) the next due follows the rule from the last
            one, so a weekly todo done late stays on its weekday; with --repeat-from completion
            it counts from when the todo was done. Either way the time of day stays the same
            across changes to and from daylight saving time. 'nudge skip ID' leaves one due out
            of a series that repeats from its due.
            """)

    static let filter = HelpTopic(
        name: "filter", heading: "FILTERS (FILTER)",
        abstract: "Terms of FILTER (list, export, status, upcoming): 3 5-8, +tag, overdue, or",
        text: """
            A FILTER chooses todos by terms, each a word of the command line. Terms next to
            each other must all hold (and between them may be written); or between them needs
            one side to hold, and binds less tightly: +a +b or +c is (+a +b) or +c. Case does
            not matter in names and values. A term is one of:
            """,
        entries: [
            HelpEntry("3 5-8", "Todos with these ids; ids and ranges in one group are one term, any of them."),
            HelpEntry("+TAG, -TAG", "With the tag, or without it (ignoring case)."),
            HelpEntry("category:NAME", "In that category; a name with spaces is quoted: 'category:Day job'."),
            HelpEntry("priority:high|medium|low", "Of that priority."),
            HelpEntry("due:today|tomorrow|none|WHEN", "Due on that day (a WHEN with a time names its day), or with no due."),
            HelpEntry("due.before:WHEN, due.after:WHEN", "Due before WHEN, or after it; a WHEN without a time is a whole day: due.before:fri is before Friday starts, due.after:fri from Saturday on."),
            HelpEntry("overdue", "Pending and due before now (an all-day todo, before today)."),
            HelpEntry("blocked", "Waiting for a pending todo it comes after (add --after)."),
            HelpEntry("repeating", "With a repeat rule."),
            HelpEntry("parent:ID", "A subtask of todo ID."),
            HelpEntry("status:pending|completed|all", "Which todos the filter looks at: given once, outside parentheses, it is for the whole filter. Without it, the pending ones (list --all and --completed choose too)."),
            HelpEntry("milk, 'oat milk'", "Todos whose title or notes contain the word, or the phrase: a quoted word with a space is one phrase, parentheses and all, unless it is a term (category:NAME)."),
            HelpEntry("( ... )", "Groups terms: ( +a or +b ) overdue. A parenthesis can be a word of its own or stuck to the ends of a word, '(+a' or '+b)'; quote them from the shell."),
        ],
        notes: """
            WHEN is read as --due reads it ('nudge help when'). A word of letters before a
            colon is taken as a term's name: a wrong one (priorty:high) is refused with the
            terms there are, and --search finds such text. A number is an id: to search for
            one, use --search too.
            """)

    static let environment = HelpTopic(
        name: "environment", heading: "ENVIRONMENT",
        abstract: "The environment variables nudge reads",
        text: "",
        entries: [
            HelpEntry("NUDGE_DB", "The database, when --db is not given."),
            HelpEntry("NUDGE_CONFIG", "The config file, when --config is not given; it must exist."),
            HelpEntry("XDG_DATA_HOME", "The database is $XDG_DATA_HOME/nudge/nudge.db by default (~/.local/share when unset)."),
            HelpEntry("XDG_CONFIG_HOME", "The config file is $XDG_CONFIG_HOME/nudge/nudge.conf by default (~/.config when unset)."),
            HelpEntry("XDG_CACHE_HOME", "The quote of the day is kept in $XDG_CACHE_HOME/nudge/quote (~/.cache when unset)."),
            HelpEntry("HOME", "The base of the default folders, and what ~/ means in the config file."),
            HelpEntry("TZ", "The local time zone, in which dates are read and shown; /etc/localtime when unset. As tzset(3) reads it: a zone name (Europe/Berlin, :Europe/Berlin), a zone file (/usr/share/zoneinfo/Europe/Berlin), or a zone without daylight saving time (UTC+3, three hours west of UTC as POSIX counts). Other POSIX rules are refused."),
            HelpEntry("LC_ALL, LC_TIME, LANG", "The first one set gives the locale, whose clock (12- or 24-hour), order of day and month and first day of the week nudge follows; [display] in the config file overrides them."),
            HelpEntry("NO_COLOR", "When set and not empty, no colours even on a terminal."),
        ])

    static let files = HelpTopic(
        name: "files", heading: "FILES",
        abstract: "The files nudge reads and writes",
        text: "",
        entries: [
            HelpEntry("~/.local/share/nudge/nudge.db", "The todos, in SQLite, shared with the reminder service nudged(8). --db, NUDGE_DB and XDG_DATA_HOME choose another file."),
            HelpEntry("~/.config/nudge/nudge.conf", "When and how Nudge reminds, described in nudge.conf(5); without it the defaults apply. --config, NUDGE_CONFIG and XDG_CONFIG_HOME choose another file."),
            HelpEntry("~/.cache/nudge/quote", "The quote of the day, fetched at most once a day."),
            HelpEntry("share/doc/nudge/nudge.conf", "Under the installation prefix (/usr/local, unless make install was given another PREFIX): the documented defaults, to copy to ~/.config/nudge/ and change."),
        ])

    static let exitStatus = HelpTopic(
        name: "exit-status", heading: "EXIT STATUS",
        abstract: "What nudge's exit status means",
        text: "An error is one line on stderr, starting with nudge:.",
        entries: [
            HelpEntry("0", "Done."),
            HelpEntry(String(CLIError.Kind.failed.rawValue), "What was asked for does not exist or cannot be done: an unknown id, a database that cannot be opened, a config file that 'nudge config check' finds wrong."),
            HelpEntry(String(CLIError.Kind.usage.rawValue), "The command was used wrongly: an unknown command or option, a missing argument, a value that cannot be read."),
            HelpEntry(String(128 + SIGPIPE), "The reader of the output went away (nudge list | head -1): nudge ends by SIGPIPE, as other tools do."),
        ])

    static let examples = HelpTopic(
        name: "examples", heading: "EXAMPLES",
        abstract: "A first day with nudge",
        text: """
            Add a todo, then see the list and the reminders to come:

              nudge add "Buy milk" --due "tomorrow 9am"
              nudge list
              nudge upcoming

            A weekly todo in a category, reminded a day before too:

              nudge category add home
              nudge add "Water plants" --due "sat 10am" --repeat weekly \\
                --category home --remind 1d

            Finish one, put another off for an hour, move a third to the next day:

              nudge done 1
              nudge snooze 2 1h
              nudge postpone 3 1d

            Start the reminder service, then ask why a todo reminds when it does and what the
            service did with it:

              systemctl --user enable --now nudge
              nudge explain 2
              nudge history 2

            Scripts read JSON:

              nudge list --json | jq -r '.[].title'
            """)
}
