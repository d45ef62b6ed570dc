package graph_test

import (
	"fmt"
	"os"

	"github.com/reverify/reverify/engine/graph"
)

// A while loop: 0 entry; 1 loop head; 2 body; 3 exit.
func loop() *graph.Adjacency {
	g := graph.NewAdjacency(4)
	g.AddEdge(0, 1)
	g.AddEdge(1, 2)
	g.AddEdge(1, 3)
	g.AddEdge(2, 1)
	return g
}

func ExampleDominators() {
	g := loop()
	dt := graph.Dominators(g, 0)
	fmt.Println(dt.Idom, dt.Dominates(1, 2), dt.Children(1))
	// Output: [-1 0 1 1] true [2 3]
}

func ExampleControlDependence() {
	g := loop()
	fmt.Println(graph.PostDominators(g, 3).Idom)
	fmt.Println(graph.ControlDependence(g, 3))
	// Output:
	// [1 3 1 -1]
	// [[] [1] [1] []]
}

func ExampleSCCs() {
	fmt.Println(graph.SCCs(loop()))
	// Output: [[3] [1 2] [0]]
}

func ExampleWriteDOT() {
	g := loop()
	graph.WriteDOT(os.Stdout, g, "loop",
		func(n int) string { return fmt.Sprintf("label=%q", fmt.Sprint("L", n)) },
		func(from, to int) string {
			if to <= from {
				return "style=dashed"
			}
			return ""
		})
	// Output:
	// digraph "loop" {
	// 	n0 [label="L0"];
	// 	n1 [label="L1"];
	// 	n2 [label="L2"];
	// 	n3 [label="L3"];
	// 	n0 -> n1;
	// 	n1 -> n2;
	// 	n1 -> n3;
	// 	n2 -> n1 [style=dashed];
	// }
}
