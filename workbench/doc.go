// Package workbench is what the emobench commands do, as functions over an
// open database: it loads what analysis takes (task outcomes, pools,
// trajectory samples), ingests sources, executes planned runs and
// assembles the report's data. It prints nothing and reads no flags or
// environment: it returns results and notes, and cmd/emobench prints them.
//
// It is the one package that joins db with ingest, sim, analysis and
// reports, which may not import one another (see ../shared/DESIGN.md).
package workbench
