#include <libical/ical.h>
