// Package ts holds the data model every other package speaks: the schema of a
// benchmark (groups, devices, sensors and their types), the columnar Batch a
// write carries, and the typed Query a read asks. It has no dependencies so that
// generators, runners and database targets can share it without importing each
// other.
package ts
