# Nudge: `make demo` shows it working, `make check` runs every test. Both install missing
# Debian packages first (as root; otherwise they say which to install).

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX ?= /usr/local
# The XDG autostart entry goes where every desktop looks: $(SYSCONFDIR)/xdg/autostart.
SYSCONFDIR ?= /etc
DESTDIR ?=
MANDIR ?= $(PREFIX)/share/man

# Build and test dependencies, as Debian packages (libcurl4: opened by `nudge import URL` and
# the quote of the day; python3: the tests' HTTP server; python3-dateutil: the oracle of the
# repeat-rule tests; todoman, taskwarrior and todotxt-cli: the import and export tests run them;
# radicale, vdirsyncer and curl: the sync tests run a CalDAV server and two machines against it;
# bash-completion, fish and zsh: the completion tests complete in each shell;
# groff-base and man-db: the man page tests typeset the pages and show them;
# sqlite3: a test runs the recovery command a damaged database's error gives;
# locales: the locale tests run nudge under TEST_LOCALES, which deps generates;
# g++: its libstdc++.a, which release builds link in).
PACKAGES = g++ pkg-config libsqlite3-dev libsystemd-dev libical-dev libinih-dev libcurl4-openssl-dev libcurl4 \
	faketime bsdutils dbus dunst xvfb libnotify-bin libglib2.0-bin systemd tzdata python3-dateutil python3-tzlocal \
	desktop-file-utils dbus-user-session util-linux passwd python3 todoman taskwarrior todotxt-cli \
	radicale vdirsyncer curl locales bash-completion fish zsh \
	groff-base man-db sqlite3
TEST_LOCALES = en_US.UTF-8 de_DE.UTF-8 C.UTF-8
BENCH_PACKAGES = taskwarrior hyperfine time gcc libc6-dev

.PHONY: all build release deps bench-deps check check-sanitize test demo bench fuzz install uninstall clean

all: build

deps:
	@scripts/install-packages $(PACKAGES)
	@scripts/generate-locales $(TEST_LOCALES)

bench-deps:
	@scripts/install-packages $(BENCH_PACKAGES)

build: deps
	$(SWIFT) build

# Release builds link the Swift runtime and Foundation into each binary: otherwise the
# dynamic loader binds thousands of symbols of twenty Swift libraries at every start, half of
# a short command's time (bench/README.md). The toolchain's lld links them: gold would warn
# about a mktemp call inside the static Foundation. The runtime's C++ library is linked in as
# well (link/static-libstdc++ turns its -lstdc++ into the archive): loaded, libstdc++.so had
# the loader look up some 2,000 symbols at every start, a fifth of `nudge add`'s instructions.
# pack-relative-relocs (DT_RELR, glibc 2.36): the binaries' 77,000 relative relocations in 14 KB
# rather than 1.8 MB that every start read, page by page, still position-independent.
RELEASE = build -c release --static-swift-stdlib -Xswiftc -use-ld=lld -Xlinker -L$(CURDIR)/link/static-libstdc++ \
	-Xlinker -z -Xlinker pack-relative-relocs

release: deps
	$(SWIFT) $(RELEASE) --product nudge
	$(SWIFT) $(RELEASE) --product nudged

# The suites that need no real service, run again at other dates so that none can depend on
# today's: a far-future one, and the moment Berlin's clocks skip from 02:00 to 03:00.
# NO_FAKE_STAT: faketime would also move the file times stat() returns, differently at each
# call, and a vdir's etags are file times that the kernel sets from the real clock.
# HookRunnerTests, SupervisedProcessTests: real processes killed by a dispatch timer, which a
# faked monotonic clock breaks; EntryWatchTests waits for inotify with Task.sleep, which never
# wakes under it. No date in them.
UNIT_SUITES = --skip NudgeDaemonE2ETests --skip NudgeSystemTests --skip NudgeTestSupportTests --skip NudgeUnitE2ETests \
	--skip HookRunnerTests --skip SupervisedProcessTests --skip EntryWatchTests
FAKE_DATES = '@2031-06-15 12:00:00' '@2027-03-28 01:59:30'

# A test that crashes ends the whole run: its report is kept to the crash site (message and
# the innermost frames), so that the tail of a CI log names the test.
check: export SWIFT_BACKTRACE = enable=yes,interactive=no,color=no,threads=crashed,registers=none,images=none,limit=16,top=0

# NudgeUnitE2ETests runs the unit under a real systemd user manager with the release binaries.
# Last, the fuzz targets replay their saved inputs and fuzz briefly (scripts/fuzz check).
check: deps release
	$(SWIFT) build --build-tests
	@scripts/clear-stale-faketime
	$(SWIFT) test --skip-build
	@for date in $(FAKE_DATES); do \
		scripts/clear-stale-faketime; \
		echo "Unit suites again at $$date (Europe/Berlin)"; \
		NO_FAKE_STAT=1 TZ=Europe/Berlin faketime -f "$$date" $(SWIFT) test --skip-build $(UNIT_SUITES) || exit 1; \
	done
	SWIFT=$(SWIFT) scripts/fuzz check

# Each parser of outside data under libFuzzer and AddressSanitizer for FUZZ_SECONDS
# (fuzz/README.md); what it finds is left in .build-fuzz/findings.
FUZZ_SECONDS ?= 600
fuzz: deps
	SWIFT=$(SWIFT) FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz run

test: check

# The unit suites built with AddressSanitizer, then with ThreadSanitizer, each in a build folder
# of its own; any report fails the run (the tests pass these settings on to the nudge they
# start). allocator_release_to_os_interval_ms=-1: the sanitizers' allocator otherwise reads
# the clock while holding its lock, and libfaketime's clock_gettime allocates on first use,
# which deadlocks every nudge the tests run under faketime. sanitize/*.supp say what
# LeakSanitizer and ThreadSanitizer are told to ignore, and why.
SANITIZE_ASAN_OPTIONS = allocator_release_to_os_interval_ms=-1:halt_on_error=1:detect_leaks=1
SANITIZE_LSAN_OPTIONS = suppressions=$(CURDIR)/sanitize/lsan.supp
SANITIZE_TSAN_OPTIONS = allocator_release_to_os_interval_ms=-1:halt_on_error=1:second_deadlock_stack=1:suppressions=$(CURDIR)/sanitize/tsan.supp

check-sanitize: deps
	$(SWIFT) build --build-tests --scratch-path .build-asan --sanitize=address
	ASAN_OPTIONS=$(SANITIZE_ASAN_OPTIONS) LSAN_OPTIONS=$(SANITIZE_LSAN_OPTIONS) $(SWIFT) test --skip-build --scratch-path .build-asan $(UNIT_SUITES)
	$(SWIFT) build --build-tests --scratch-path .build-tsan --sanitize=thread
	TSAN_OPTIONS=$(SANITIZE_TSAN_OPTIONS) $(SWIFT) test --skip-build --scratch-path .build-tsan $(UNIT_SUITES)

demo: release
	@scripts/demo "$$($(SWIFT) $(RELEASE) --show-bin-path)/nudge"
	@scripts/demo-service "$$($(SWIFT) $(RELEASE) --show-bin-path)"

bench: release bench-deps
	bench/run

# nudge(1), nudged(8) and nudge.conf(5), written into .build/man from the help texts of the
# release build and the documented config/nudge.conf.
.PHONY: man
man: deps
	$(SWIFT) $(RELEASE) --product nudge-manpages
	"$$($(SWIFT) $(RELEASE) --show-bin-path)/nudge-manpages" config/nudge.conf .build/man

# The binaries, the user unit (pointing at the installed nudged), the autostart entry that
# starts it where the desktop does not start graphical-session.target, the documented
# config as an example to copy to ~/.config/nudge/nudge.conf, and the shell completions,
# generated by the nudge just built, where bash-completion, zsh and fish look for them.
BASH_COMPLETION_DIR = $(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR = $(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR = $(PREFIX)/share/fish/vendor_completions.d

install: release
install: man
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/lib/systemd/user" "$(DESTDIR)$(PREFIX)/share/doc/nudge"
	install -m 0755 "$$($(SWIFT) $(RELEASE) --show-bin-path)/nudge" "$(DESTDIR)$(PREFIX)/bin/nudge"
	install -m 0755 "$$($(SWIFT) $(RELEASE) --show-bin-path)/nudged" "$(DESTDIR)$(PREFIX)/bin/nudged"
	sed 's|@BINDIR@|$(PREFIX)/bin|' units/nudge.service > "$(DESTDIR)$(PREFIX)/lib/systemd/user/nudge.service"
	chmod 0644 "$(DESTDIR)$(PREFIX)/lib/systemd/user/nudge.service"
	install -m 0644 config/nudge.conf "$(DESTDIR)$(PREFIX)/share/doc/nudge/nudge.conf"
	install -d "$(DESTDIR)$(SYSCONFDIR)/xdg/autostart"
	install -m 0644 units/nudge-autostart.desktop "$(DESTDIR)$(SYSCONFDIR)/xdg/autostart/nudge.desktop"
	install -d "$(DESTDIR)$(MANDIR)/man1" "$(DESTDIR)$(MANDIR)/man5" "$(DESTDIR)$(MANDIR)/man8"
	install -m 0644 .build/man/nudge.1 "$(DESTDIR)$(MANDIR)/man1/nudge.1"
	install -m 0644 .build/man/nudge.conf.5 "$(DESTDIR)$(MANDIR)/man5/nudge.conf.5"
	install -m 0644 .build/man/nudged.8 "$(DESTDIR)$(MANDIR)/man8/nudged.8"
	install -d "$(DESTDIR)$(BASH_COMPLETION_DIR)" "$(DESTDIR)$(ZSH_COMPLETION_DIR)" "$(DESTDIR)$(FISH_COMPLETION_DIR)"
	"$$($(SWIFT) $(RELEASE) --show-bin-path)/nudge" completions bash > "$(DESTDIR)$(BASH_COMPLETION_DIR)/nudge"
	"$$($(SWIFT) $(RELEASE) --show-bin-path)/nudge" completions zsh > "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_nudge"
	"$$($(SWIFT) $(RELEASE) --show-bin-path)/nudge" completions fish > "$(DESTDIR)$(FISH_COMPLETION_DIR)/nudge.fish"
	chmod 0644 "$(DESTDIR)$(BASH_COMPLETION_DIR)/nudge" "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_nudge" "$(DESTDIR)$(FISH_COMPLETION_DIR)/nudge.fish"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/nudge" "$(DESTDIR)$(PREFIX)/bin/nudged" \
		"$(DESTDIR)$(PREFIX)/lib/systemd/user/nudge.service" "$(DESTDIR)$(PREFIX)/share/doc/nudge/nudge.conf" \
		"$(DESTDIR)$(SYSCONFDIR)/xdg/autostart/nudge.desktop" \
		"$(DESTDIR)$(BASH_COMPLETION_DIR)/nudge" "$(DESTDIR)$(ZSH_COMPLETION_DIR)/_nudge" \
		"$(DESTDIR)$(FISH_COMPLETION_DIR)/nudge.fish"
	rm -f "$(DESTDIR)$(MANDIR)/man1/nudge.1" "$(DESTDIR)$(MANDIR)/man5/nudge.conf.5" "$(DESTDIR)$(MANDIR)/man8/nudged.8"

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan
