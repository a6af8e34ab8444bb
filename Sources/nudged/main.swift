import NudgeDaemon
import Foundation

// The only place the service reads the real clock and zone.
exit(NudgeDaemonMain.run(now: { Date() }, zone: { TimeZone.current }))
