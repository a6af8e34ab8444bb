import Foundation
import Testing
@testable import NudgeCore

/// Nags every minute, a digest, quiet hours over midnight and before-offsets of a day, on a
/// due at either end of the years 0001-9999: the planner gives no moment outside them, and
/// following its reminders one after another, as nudged does, comes to an end.
struct PlannerYearEdgeTests {
    func planner(zone: TimeZone, quiet: (Int, Int) = (22, 7)) -> ReminderPlanner {
        var config = NudgeConfig()
        config.reminders.before = [TimeSpan(seconds: 600), TimeSpan(seconds: 3600), TimeSpan(days: 1)]
        config.reminders.allDayDayBefore = true
        config.reminders.nagEvery = TimeSpan(seconds: 60)
        config.reminders.nagLimit = nil
        config.quietHours = QuietHours(start: TimeOfDay(hour: quiet.0, minute: 0)!, end: TimeOfDay(hour: quiet.1, minute: 0)!,
                                       allowHigh: false)
        config.digest.enabled = true
        return ReminderPlanner(config: config, zone: zone)
    }

    func subject(_ due: Due, remindedThrough: Date? = nil) -> ReminderSubject {
        let made = Date(timeIntervalSince1970: 0)
        let todo = Todo(id: 1, title: "edge", due: due, createdAt: made, updatedAt: made)
        return ReminderSubject(todo: todo, reminderState: .init(remindedThrough: remindedThrough))
    }

    /// Every reminder's moment and the moment its rule says, on the planner's clock.
    func outside(_ reminders: [Reminder], _ planner: ReminderPlanner) -> [String] {
        let clock = WallClock(zone: planner.calendar.timeZone)
        return reminders.filter { !clock.isWithinYears($0.at) || !clock.isWithinYears($0.nominal) }
            .map { "\($0.rule) at \(clock.iso8601($0.at)) from \(clock.iso8601($0.nominal))" }
    }

    /// Fires the next pending reminder until none is left, as the service does.
    func followed(_ subject: ReminderSubject, _ planner: ReminderPlanner) -> (fired: [Reminder], ended: Bool) {
        var subject = subject
        var fired: [Reminder] = []
        for _ in 0..<2_000 {
            guard let next = planner.pending(subject).first else { return (fired, true) }
            fired.append(next)
            subject.remindedThrough = next.at
        }
        return (fired, false)
    }

    @Test(arguments: ["Europe/Berlin", "UTC", "America/New_York", "Pacific/Kiritimati"])
    func aDueOnTheLastMinuteOfTheYear9999PlansNothingPastIt(_ name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        let calendar = Calendar.nudge(zone: zone)
        let lastMinute = try #require(calendar.date(from: DateComponents(year: 9999, month: 12, day: 31, hour: 23, minute: 59)))
        let lastDay = try #require(LocalDate(year: 9999, month: 12, day: 31))
        for quiet in [(22, 7), (23, 1), (0, 7)] {
            let planner = planner(zone: zone, quiet: quiet)
            for due in [Due.at(lastMinute, zone: zone), .allDay(lastDay)] {
                let start = subject(due)
                #expect(outside(planner.all(start, nags: 500), planner) == [])
                let (fired, ended) = followed(start, planner)
                #expect(ended, "\(due) \(quiet)")
                #expect(outside(fired, planner) == [])
                #expect(outside(planner.nags(following: fired.last?.at ?? lastMinute, of: start, through: .distantFuture),
                                planner) == [])
            }
            let eve = lastDay.at(hour: 8, minute: 0, in: calendar)
            #expect(planner.nextDigest(after: eve.addingTimeInterval(-86_400), earliestDue: lastDay) == eve)
            #expect(planner.nextDigest(after: eve, earliestDue: lastDay) == nil)
            #expect(planner.nextDigest(after: lastMinute, earliestDue: lastDay) == nil)
        }
    }

    /// `before = 1h` on a due at 0001-01-01 00:00 says 0000-12-31 23:00, which quiet hours would
    /// hold until 07:00 on the first day: a reminder whose rule says a moment before the years
    /// is not made at all.
    @Test(arguments: ["Europe/Berlin", "UTC", "America/New_York", "Pacific/Kiritimati"])
    func aDueOnTheFirstMinuteOfTheYear1PlansNothingBeforeIt(_ name: String) throws {
        let zone = try #require(TimeZone(identifier: name))
        let calendar = Calendar.nudge(zone: zone)
        let firstDay = try #require(LocalDate(year: 1, month: 1, day: 1))
        let firstMinute = firstDay.at(hour: 0, minute: 0, in: calendar)
        for quiet in [(22, 7), (23, 1), (0, 7)] {
            let planner = planner(zone: zone, quiet: quiet)
            for due in [Due.at(firstMinute, zone: zone), .allDay(firstDay)] {
                let start = subject(due)
                let all = planner.all(start, nags: 5)
                #expect(outside(all, planner) == [], "\(due) \(quiet)")
                #expect(!all.map(\.rule).contains(.before(TimeSpan(days: 1))))
                #expect(outside(planner.pending(start), planner) == [])
            }
            #expect(planner.nextDigest(after: firstMinute.addingTimeInterval(-86_400 * 2), earliestDue: firstDay)
                == firstDay.at(hour: 8, minute: 0, in: calendar))
        }
    }

    /// A due at 0001-01-01 00:00 UTC, seen in New York, where its nags come on 0000-12-31 and
    /// quiet hours over midnight would hold them into the year 1: `upcoming` lists none of them.
    @Test func nagsBeforeTheYear1HeldIntoItAreNotForecast() throws {
        let newYork = try #require(TimeZone(identifier: "America/New_York"))
        let utc = try #require(TimeZone(identifier: "UTC"))
        let planner = planner(zone: newYork, quiet: (19, 1))
        let due = try #require(LocalDate(year: 1, month: 1, day: 1)).start(in: .nudge(zone: utc))
        let start = subject(.at(due, zone: utc))
        let nags = planner.nags(following: due, of: start, through: due.addingTimeInterval(2 * 86_400), limit: 5)
        #expect(outside(nags, planner) == [])
    }
}
