package cmodel

import "regexp"

// The atexit model (C11 7.22.4.2–4, 5.1.2.2.3): functions registered
// with atexit run, in the reverse order of their registration, when
// exit is called or main returns; a function registered while they run
// runs too (it is the last registered then). A program that calls atexit
// without defining it gets the translation unit atexitSource, which
// keeps the registered functions in a stack of AtexitMax entries (the
// least C requires; one more registration fails with a nonzero result,
// as C allows) and defines atexit and the runner AtexitRun, and every
// call of exit (without body) and every return of main call the runner
// first. abort, _Exit and quick_exit do not run them (C11 7.22.4.1,
// 7.22.4.5, 7.22.4.7), nor does a program without atexit calls.
//
// main's locals are still live while the functions run after its
// return, where C ends their lifetime first (5.1.2.2.3, footnote 11); a
// function reaching one through a pointer would read a dead object, so
// when main has an address-taken local (or parameter) an Unsupported
// edge precedes the runner call of its returns (analyses give up on the
// properties the functions may affect, never decide them).
//
// Without the model atexit is an unmodelled function that may call back
// its argument, and every memory property is UNKNOWN (SV-COMP
// c/memsafety/global-atexit*).
const (
	AtexitName = "<atexit>" // the unit's name in positions
	AtexitRun  = "__reverify_atexit_run"
	AtexitMax  = 32
)

// atexitSource is the translation unit of the atexit model.
const atexitSource = `typedef void (*__reverify_atexit_fn)(void);
static __reverify_atexit_fn __reverify_atexit_fns[32];
static int __reverify_atexit_n;

int atexit(void (*f)(void))
{
	if (__reverify_atexit_n == 32)
		return 1;
	__reverify_atexit_fns[__reverify_atexit_n] = f;
	__reverify_atexit_n++;
	return 0;
}

void __reverify_atexit_run(void)
{
	while (__reverify_atexit_n > 0) {
		__reverify_atexit_n--;
		__reverify_atexit_fns[__reverify_atexit_n]();
	}
}
`

// Atexit is the atexit model's unit. A destructor needs it too: the
// front end registers destructors with the model (engine/frontend's
// ctors.go).
var Atexit = newUnit(AtexitName, atexitSource, []string{"atexit"}, destructorRE.MatchString, nil)

// destructorRE matches the destructor attribute.
var destructorRE = regexp.MustCompile(`__attribute__\s*\(\(\s*[^;{}]*\b(__)?destructor(__)?\b`)
