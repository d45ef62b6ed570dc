package frontend_test

import (
	"fmt"
	"strings"

	"github.com/reverify/reverify/engine/frontend"
)

func ExampleTranslateSources() {
	src := `int main(void) {
  int x = 0;
  while (x < 10 && __VERIFIER_nondet_int())
    x++;
  if (x > 10)
    reach_error();
  return 0;
}
`
	p, err := frontend.TranslateSources(frontend.Options{}, []frontend.Source{{Name: "ex.c", Content: src}})
	if err != nil {
		fmt.Println(err)
		return
	}
	text := p.Text()
	// Omit the empty Init function.
	text = text[:strings.Index(text, "\nfunc __reverify_init")] + text[strings.Index(text, "\nfunc main"):]
	fmt.Print(text)
	// Output:
	// extern __VERIFIER_nondet_int, reach_error
	//
	// func main() int  // ex.c
	//   entry L0 exit L1
	//   L0 -> L2  decl int x  @2:3
	//   L2 -> L3*  x = 0  @2:7
	//   L3 -> L4  [x < 10]  @3:10
	//   L3 -> L7  [!(x < 10)]  @3:10
	//   L4 -> L5  __t0 = nondet(__VERIFIER_nondet_int)  @3:20
	//   L5 -> L6  [__t0 != 0]  @3:20
	//   L5 -> L7  [!(__t0 != 0)]  @3:20
	//   L6 -> L3*  x = x + 1  @4:5
	//   L7 -> L8  [x > 10]  @5:7
	//   L7 -> L9  [!(x > 10)]  @5:7
	//   L8 -> L9  reach_error()  @6:5
	//   L9 -> L1  return 0  @7:3
}
