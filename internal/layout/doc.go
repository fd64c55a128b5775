// Package layout holds tests of the module's package graph: what each
// public package may link.
package layout
