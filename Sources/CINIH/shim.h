// inih (libinih-dev), used by NudgeConfigFile through ini_parse_stream.
//
// Debian builds it with the upstream defaults and turns most compile-time options into global
// variables (ini_allow_multiline, ini_inline_comment_prefixes, ...). Nudge never writes those
// globals: NudgeConfigFile feeds inih one pre-processed line at a time and counts lines itself.
#include <ini.h>
