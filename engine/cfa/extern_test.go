package cfa

import (
	"strconv"
	"strings"
	"testing"
)

func TestExternKinds(t *testing.T) {
	p := NewProgram(LP64)
	p.AssumePure = map[string]bool{"log_msg": true, "memcpy": true}
	for name, want := range map[string]ExternKind{
		"printf": ExternNoEffect, "abort": ExternNoEffect, "__VERIFIER_nondet_int": ExternNondet,
		"__VERIFIER_assume": ExternAssume, "memcpy": ExternModelled, "isdigit": ExternModelled,
		"log_msg": ExternPure, "ext": ExternUnmodelled, "rand": ExternUnmodelled,
		"srand": ExternNoEffect, "srandom": ExternNoEffect,
	} {
		if got := p.Extern(name); got != want {
			t.Errorf("Extern(%s) = %v, want %v", name, got, want)
		}
	}
	g := &Var{Global: true, T: IntT}
	vol := &Var{Global: true, Volatile: true, T: IntT}
	at := &Var{Func: "main", AddrTaken: true, T: IntT}
	reg := &Var{Func: "main", T: IntT}
	if !UnmodelledWrites(g) || !UnmodelledWrites(at) || UnmodelledWrites(reg) || UnmodelledWrites(vol) {
		t.Errorf("UnmodelledWrites: global %v, address-taken %v, register %v, volatile %v",
			UnmodelledWrites(g), UnmodelledWrites(at), UnmodelledWrites(reg), UnmodelledWrites(vol))
	}
}

// CtypeValue gives what gcc -O0 and glibc give (checked against them by
// engine/testdata/verdicts/libc_models.c).
func TestCtypeValue(t *testing.T) {
	var got []string
	for _, tc := range []struct {
		fn string
		c  int64
	}{{"isdigit", '7'}, {"isdigit", 'x'}, {"isalpha", 'x'}, {"isspace", '\t'}, {"toupper", 'a'},
		{"toupper", -1}, {"toupper", -100}, {"tolower", 200}, {"isprint", -3}, {"isalnum", 300}} {
		v, ok := CtypeValue(tc.fn, tc.c)
		if !ok {
			got = append(got, tc.fn+":undefined")
			continue
		}
		got = append(got, tc.fn+":"+strconv.FormatInt(v, 10))
	}
	want := "isdigit:1 isdigit:0 isalpha:1024 isspace:8192 toupper:65 toupper:-1 toupper:156 tolower:200 isprint:0 isalnum:undefined"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}
