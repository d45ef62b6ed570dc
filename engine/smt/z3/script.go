package z3

/*
#cgo LDFLAGS: -lz3
#include <stdlib.h>
#include <z3.h>

static void reverify_script_ignore_error(Z3_context c, Z3_error_code e) { (void)c; (void)e; }

static Z3_context reverify_script_context(void) {
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	Z3_context c = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	Z3_set_error_handler(c, reverify_script_ignore_error);
	return c;
}

// reverify_eval evaluates the SMT-LIB commands of script in c and returns
// a malloc'd copy of their output, or NULL when Z3 reports an error
// (*why then receives a malloc'd copy of its message, and *memout says
// whether the error is the exhaustion of memory).
static char *reverify_eval(Z3_context c, const char *script, char **why, int *memout) {
	*why = NULL;
	Z3_string out = Z3_eval_smtlib2_string(c, script);
	*memout = Z3_get_error_code(c) == Z3_MEMOUT_FAIL;
	if (Z3_get_error_code(c) != Z3_OK) {
		Z3_string msg = Z3_get_error_msg(c, Z3_get_error_code(c));
		size_t n = 0;
		while (msg[n]) n++;
		*why = malloc(n + 1);
		for (size_t i = 0; i <= n; i++) (*why)[i] = msg[i];
		return NULL;
	}
	size_t n = 0;
	while (out[n]) n++;
	char *r = malloc(n + 1);
	for (size_t i = 0; i <= n; i++) r[i] = out[i];
	return r;
}
*/
import "C"

import (
	"context"
	"fmt"
	"strings"
	"unsafe"
)

// CheckScript decides the SMT-LIB script of smt.Script (declarations and
// assertions, no commands) with Z3's one-shot solver (check-sat without
// push: the tactic for the logic Z3 detects, bit-blasting for QF_BV, as
// Options.OneShot) in a Z3 context of its own, interrupted when ctx is
// done. head is "sat", "unsat", "unknown" or "memout" (Z3 ran out of
// memory: an allocation failed); for "sat", values is the
// answer to get-value of v0 … v(vars-1) (smt.Script's names); for
// "unknown", reason is Z3's reason. An error means Z3 rejected the
// script. A solver process runs it (package solverproc): Z3 4.8 does not
// always stop a one-shot check when interrupted, and only a process can
// be stopped and bounded in memory for sure.
func CheckScript(ctx context.Context, script string, vars int) (head, reason, values string, err error) {
	zc := C.reverify_script_context()
	defer C.Z3_del_context(zc)
	memout := false
	eval := func(cmds string) (string, error) {
		cs := C.CString(cmds)
		defer C.free(unsafe.Pointer(cs))
		var why *C.char
		var mem C.int
		stop := interruptOnDone(ctx, zc)
		out := C.reverify_eval(zc, cs, &why, &mem)
		stop()
		memout = memout || mem != 0
		if out == nil {
			msg := "unknown error"
			if why != nil {
				msg = C.GoString(why)
				C.free(unsafe.Pointer(why))
			}
			return "", fmt.Errorf("smt/z3: the script was rejected: %s", strings.Join(strings.Fields(msg), " "))
		}
		defer C.free(unsafe.Pointer(out))
		return C.GoString(out), nil
	}
	out, err := eval("(set-option :produce-models true)\n" + script + "(check-sat)\n")
	if err != nil {
		if memout {
			return "memout", "", "", nil
		}
		return "", "", "", err
	}
	out = strings.TrimSpace(out)
	if strings.Contains(out, "(error") {
		return "", "", "", fmt.Errorf("smt/z3: the script was rejected: %s", strings.Join(strings.Fields(out), " "))
	}
	switch out {
	case "sat":
		if vars == 0 {
			return "sat", "", "()", nil
		}
		var q strings.Builder
		q.WriteString("(get-value (")
		for i := 0; i < vars; i++ {
			fmt.Fprintf(&q, " v%d", i)
		}
		q.WriteString("))\n")
		values, err = eval(q.String())
		if err != nil {
			return "", "", "", err
		}
		return "sat", "", values, nil
	case "unsat":
		return "unsat", "", "", nil
	case "unknown":
		info, _ := eval("(get-info :reason-unknown)\n")
		info = strings.Join(strings.Fields(info), " ")
		if info == `(:reason-unknown "out of memory")` {
			return "memout", "", "", nil
		}
		return "unknown", info, "", nil
	}
	return "", "", "", fmt.Errorf("smt/z3: unexpected answer %q", out)
}
