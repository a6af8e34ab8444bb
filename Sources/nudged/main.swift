import NudgeDaemon
import Foundation
exit(NudgeDaemonMain.run())
