// The child of HarnessCleanupTests: a test process that starts what the harnesses start and
// is then killed.
import NudgeTestSupport

CrashingTestProcess.main()
