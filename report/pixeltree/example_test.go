package pixeltree_test

import (
	"fmt"
	"io"

	"github.com/reverify/reverify/report/pixeltree"
)

// The ARG of a small analysis run: 25 states, 8 levels. Six states are
// covered, one was merged, the analysis found a target at
// depth 6 (the counterexample path 0 1 3 6 11 17 22 is highlighted) and
// left one state in the waitlist.
func Example() {
	succs := [][]int{
		0: {1}, 1: {2, 3}, 2: {4, 5}, 3: {6},
		4: {7, 8}, 5: {9}, 6: {10, 11},
		7: {12}, 8: {13, 14}, 9: {}, 10: {15, 16}, 11: {17},
		12: {18}, 13: {19, 20}, 14: {}, 15: {21}, 16: {}, 17: {22, 23},
		18: {}, 19: {}, 20: {24}, 21: {}, 22: {}, 23: {}, 24: {},
	}
	kinds := map[int]pixeltree.Kind{
		9: pixeltree.Covered, 14: pixeltree.Covered, 15: pixeltree.Merged,
		18: pixeltree.Covered, 19: pixeltree.Covered, 21: pixeltree.Covered,
		22: pixeltree.Target, 23: pixeltree.Unexpanded, 24: pixeltree.Covered,
	}
	arg := pixeltree.FromFunc(len(succs),
		func(n int) []int { return succs[n] },
		func(n int) pixeltree.Kind { return kinds[n] })
	arg = pixeltree.Highlight(arg, []int{0, 1, 3, 6, 11, 17, 22})

	p := pixeltree.Layout(arg, pixeltree.Options{Unit: 4})
	fmt.Println(p.States, "states,", len(p.Rows), "rows, widest", p.Width)
	fmt.Println("depth 4:", p.Rows[4])
	fmt.Println("image:", p.Image().Bounds()) // Unit 4: 6·4 × 8·4 pixels
	if err := p.PNG(io.Discard); err != nil { // or an *os.File
		fmt.Println(err)
	}
	fmt.Print(p.Text(80))
	// Output:
	// 25 states, 8 rows, widest 6
	// depth 4: [ordinary ordinary covered ordinary highlighted]
	// image: (0,0)-(24,32)
	//   *
	//  ▄█*
	// ██░▒**
	// ░░░░X?
	// █ state  ░ covered  X target  ▒ merged  * path  ? unexpanded
	// 25 states, 8 levels
}
