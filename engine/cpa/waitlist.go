package cpa

import (
	"container/heap"
	"fmt"

	"github.com/reverify/reverify/engine/cfa"
	"github.com/reverify/reverify/engine/graph"
)

// Order is the order in which the waitlist hands out states.
type Order uint8

// Waitlist orders.
const (
	// BFS pops the oldest state first (breadth-first search).
	BFS Order = iota
	// DFS pops the newest state first (depth-first search).
	DFS
	// RPO pops the state whose location comes first in the reverse
	// post-order of its function's CFA; ties go to the deeper call stack,
	// then to the older state. Loop bodies are thereby finished before
	// the loop exit, which lets merge-join and stop converge early.
	RPO
)

var orderNames = [...]string{"bfs", "dfs", "rpo"}

func (o Order) String() string { return orderNames[o] }

// ParseOrder parses "bfs", "dfs" or "rpo".
func ParseOrder(s string) (Order, error) {
	for i, n := range orderNames {
		if n == s {
			return Order(i), nil
		}
	}
	return 0, fmt.Errorf("unknown waitlist order %q (want bfs, dfs or rpo)", s)
}

// waitlist holds nodes; removal is lazy (a popped node whose inWait flag
// was cleared is skipped by the algorithm).
type waitlist interface {
	push(n *Node)
	pop() *Node // nil when empty
	len() int   // including lazily removed nodes
}

type fifo struct {
	q    []*Node
	head int
}

func (w *fifo) push(n *Node) { w.q = append(w.q, n) }
func (w *fifo) len() int     { return len(w.q) - w.head }
func (w *fifo) pop() *Node {
	if w.head == len(w.q) {
		return nil
	}
	n := w.q[w.head]
	w.q[w.head] = nil
	w.head++
	if w.head > 1024 && w.head*2 > len(w.q) {
		w.q = append(w.q[:0:0], w.q[w.head:]...)
		w.head = 0
	}
	return n
}

type lifo struct{ q []*Node }

func (w *lifo) push(n *Node) { w.q = append(w.q, n) }
func (w *lifo) len() int     { return len(w.q) }
func (w *lifo) pop() *Node {
	if len(w.q) == 0 {
		return nil
	}
	n := w.q[len(w.q)-1]
	w.q[len(w.q)-1] = nil
	w.q = w.q[:len(w.q)-1]
	return n
}

// rpoList is a priority queue by (RPO number of the location, -call-stack
// depth, insertion number).
type rpoList struct {
	items []rpoItem
	rpo   map[*cfa.Function][]int // location index → RPO number
	depth func(*Node) int
}

type rpoItem struct {
	n     *Node
	rpo   int
	depth int
}

func (w *rpoList) number(l *cfa.Location) int {
	if l == nil {
		return 0
	}
	nums, ok := w.rpo[l.Func]
	if !ok {
		nums = make([]int, len(l.Func.Locs))
		for i := range nums {
			nums[i] = len(nums) // unreachable locations last
		}
		for i, x := range graph.ReversePostOrder(l.Func, l.Func.Entry.Index) {
			nums[x] = i
		}
		w.rpo[l.Func] = nums
	}
	return nums[l.Index]
}

func (w *rpoList) Len() int { return len(w.items) }
func (w *rpoList) Less(i, j int) bool {
	a, b := &w.items[i], &w.items[j]
	if a.rpo != b.rpo {
		return a.rpo < b.rpo
	}
	if a.depth != b.depth {
		return a.depth > b.depth
	}
	return a.n.seq < b.n.seq
}
func (w *rpoList) Swap(i, j int) { w.items[i], w.items[j] = w.items[j], w.items[i] }
func (w *rpoList) Push(x any)    { w.items = append(w.items, x.(rpoItem)) }
func (w *rpoList) Pop() any {
	x := w.items[len(w.items)-1]
	w.items = w.items[:len(w.items)-1]
	return x
}

func (w *rpoList) push(n *Node) {
	heap.Push(w, rpoItem{n: n, rpo: w.number(n.Location()), depth: w.depth(n)})
}
func (w *rpoList) len() int { return len(w.items) }
func (w *rpoList) pop() *Node {
	if len(w.items) == 0 {
		return nil
	}
	return heap.Pop(w).(rpoItem).n
}
