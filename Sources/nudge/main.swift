import NudgeCLI
import Foundation
exit(NudgeCLI.main())
