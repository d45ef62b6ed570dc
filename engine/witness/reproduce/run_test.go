package reproduce

import "github.com/reverify/reverify/report/reproducer"

// RunReproducer runs a compiled reproducer for the tests of this package
// (report/reproducer.Run: the engine runs no processes itself).
var RunReproducer = reproducer.Run
