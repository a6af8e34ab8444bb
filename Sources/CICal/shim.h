// libical's declarations only: the library is opened with dlopen on first use and called
// through the pointers dlsym returns. Linked, it and ICU, which it needs, were loaded and
// bound at every start of `nudge`, where most commands never repeat, import or export a todo.
#include <libical/ical.h>
#include "../CLibraryTable/library_table.h"
#include <stddef.h>

/// The functions of libical that Nudge uses.
#define NUDGE_ICAL_FUNCTIONS(X) \
    X(ical_set_unknown_token_handling_setting) \
    X(icalcomponent_add_component) \
    X(icalcomponent_add_property) \
    X(icalcomponent_as_ical_string_r) \
    X(icalcomponent_free) \
    X(icalcomponent_get_first_component) \
    X(icalcomponent_get_first_property) \
    X(icalcomponent_get_next_component) \
    X(icalcomponent_get_next_property) \
    X(icalcomponent_isa) \
    X(icalcomponent_kind_to_string) \
    X(icalcomponent_new) \
    X(icalcomponent_new_clone) \
    X(icalcomponent_remove_component) \
    X(icalcomponent_remove_property) \
    X(icalcomponent_strip_errors) \
    X(icaldurationtype_null_duration) \
    X(icalerror_clear_errno) \
    X(icalparameter_new_related) \
    X(icalparameter_new_tzid) \
    X(icalparser_parse_string) \
    X(icalproperty_add_parameter) \
    X(icalproperty_as_ical_string_r) \
    X(icalproperty_count_parameters) \
    X(icalproperty_free) \
    X(icalproperty_get_acknowledged) \
    X(icalproperty_get_action) \
    X(icalproperty_get_categories) \
    X(icalproperty_get_description) \
    X(icalproperty_get_duration) \
    X(icalproperty_get_parameter_as_string_r) \
    X(icalproperty_get_percentcomplete) \
    X(icalproperty_get_priority) \
    X(icalproperty_get_property_name) \
    X(icalproperty_get_rrule) \
    X(icalproperty_get_status) \
    X(icalproperty_get_summary) \
    X(icalproperty_get_trigger) \
    X(icalproperty_get_value) \
    X(icalproperty_get_value_as_string_r) \
    X(icalproperty_isa) \
    X(icalproperty_new_acknowledged) \
    X(icalproperty_new_action) \
    X(icalproperty_new_categories) \
    X(icalproperty_new_completed) \
    X(icalproperty_new_created) \
    X(icalproperty_new_description) \
    X(icalproperty_new_dtstamp) \
    X(icalproperty_new_dtstart) \
    X(icalproperty_new_due) \
    X(icalproperty_new_exdate) \
    X(icalproperty_new_from_string) \
    X(icalproperty_new_lastmodified) \
    X(icalproperty_new_percentcomplete) \
    X(icalproperty_new_priority) \
    X(icalproperty_new_prodid) \
    X(icalproperty_new_rrule) \
    X(icalproperty_new_status) \
    X(icalproperty_new_summary) \
    X(icalproperty_new_trigger) \
    X(icalproperty_new_uid) \
    X(icalproperty_new_version) \
    X(icalproperty_new_x) \
    X(icalproperty_set_tzid) \
    X(icalproperty_set_x_name) \
    X(icalrecur_freq_to_string) \
    X(icalrecur_iterator_free) \
    X(icalrecur_iterator_new) \
    X(icalrecur_iterator_next) \
    X(icalrecurrencetype_as_string_r) \
    X(icalrecurrencetype_from_string) \
    X(icaltime_as_timet_with_zone) \
    X(icaltime_from_timet_with_zone) \
    X(icaltime_is_null_time) \
    X(icaltime_is_utc) \
    X(icaltime_null_time) \
    X(icaltimezone_free) \
    X(icaltimezone_get_builtin_timezone) \
    X(icaltimezone_get_component) \
    X(icaltimezone_get_utc_offset_of_utc_time) \
    X(icaltimezone_get_utc_timezone) \
    X(icaltimezone_new) \
    X(icaltimezone_set_component) \
    X(icaltimezone_truncate_vtimezone) \
    X(icalvalue_get_datetime)

/// nudge_ical_api: each function as dlsym found it, under its own name.
NUDGE_LIBRARY_TABLE(nudge_ical_api, NUDGE_ICAL_FUNCTIONS)
