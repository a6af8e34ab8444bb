import NudgeCLI
import NudgePlatform
import Foundation

// The only place the command line reads the real clock and zone.
exit(NudgeCLI.main(now: Date(), zone: TimeZone.current, environment: ProcessEnvironment.read()))
