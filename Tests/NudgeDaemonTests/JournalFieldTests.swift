import Foundation
import Testing
@testable import NudgeDaemon

struct JournalFieldTests {
    /// printf is the oracle; the values avoid halves, where printf rounds the exact binary
    /// value and `decimal` the scaled one.
    @Test(arguments: [0, 1, 3])
    func decimalWritesWhatPrintfWrites(digits: Int) {
        let values = (0..<2000).map { Double($0) / 7.3 } + [0, 0.04, 0.96, 9.999, 12345.678, 1e6 / 3, -2.718]
        for value in values {
            #expect(JournalField.decimal(value, digits: digits) == String(format: "%.\(digits)f", value), "\(value)")
        }
    }

    @Test func decimalRoundsHalvesToEven() {
        #expect(JournalField.decimal(0.25, digits: 1) == "0.2")
        #expect(JournalField.decimal(0.75, digits: 1) == "0.8")
        #expect(JournalField.decimal(2.5, digits: 0) == "2")
    }
}
