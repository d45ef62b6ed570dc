package cfa

// EndsProgram reports whether a call of fn, a function without a body,
// ends the process: exit and its relatives, abort, and the assertion
// failure handlers of C libraries (glibc's __assert_fail, BSD's
// __assert_rtn) and SV-COMP's __VERIFIER_error, which abort. SV-COMP's
// valid-memcleanup counts these as the end of the program: the labels
// of the tasks whose only unfreed path ends in abort (list-properties'
// alternating_list-2, simple-ext, list_search-1) are false. Calls that
// never return for other reasons (an infinite loop, pthread_exit, a
// user function declared noreturn without a body, __builtin_unreachable)
// are not ends.
func EndsProgram(fn string) bool {
	switch fn {
	case "exit", "_exit", "_Exit", "quick_exit", "__builtin_exit",
		"abort", "__builtin_abort", "__builtin_trap",
		"__assert_fail", "__assert_perror_fail", "__assert", "__assert_rtn",
		"__VERIFIER_error":
		return true
	}
	return false
}
