package export

import (
	"io"

	"github.com/parquet-go/parquet-go"
)

// ParquetSchemaVersion is written to every Parquet file's key-value
// metadata under "emobench.schema"; it changes when a column changes.
const ParquetSchemaVersion = "1"

// parquetRowGroupBytes is the approximate size of the rows a table buffers
// before it writes them as a row group, which bounds memory.
const parquetRowGroupBytes = 32 << 20

// parquetBatch is the number of rows handed to the writer at once.
const parquetBatch = 256

// Parquet writes the parquet format: runs.parquet (RunRow), tasks.parquet
// (TaskRow, one per distinct task), trajectories.parquet (TrajectoryRow) and
// messages.parquet (MessageRow), ZSTD-compressed, for DuckDB, pandas
// (pyarrow) and Spark. Column types follow the row structs: integers are
// INT64, floats DOUBLE, text and JSON columns UTF-8 strings, created_at a
// TIMESTAMP(millis, UTC); pointer fields are optional columns, NULL when
// unknown (costs, rewards, tokens) or absent. Join trajectories to runs on
// run_id, to tasks on task_sha256, and messages to trajectories on
// trajectory_id.
type Parquet struct {
	runs  *table[RunRow]
	tasks *table[TaskRow]
	trajs *table[TrajectoryRow]
	msgs  *table[MessageRow]
	rows  *rowBuilder
}

// NewParquet returns a Parquet writer over the four files' writers.
func NewParquet(runs, tasks, trajectories, messages io.Writer) (*Parquet, error) {
	return &Parquet{
		runs: newTable[RunRow](runs), tasks: newTable[TaskRow](tasks),
		trajs: newTable[TrajectoryRow](trajectories), msgs: newTable[MessageRow](messages),
		rows: newRowBuilder(),
	}, nil
}

// WriteRun implements TableWriter.
func (p *Parquet) WriteRun(run Run) (int, error) {
	if err := p.runs.add(runRow(&run.Run), 0); err != nil {
		return 0, err
	}
	n := 0
	for traj, err := range run.Trajectories {
		if err != nil {
			return n, err
		}
		task, newTask, t, msgs, err := p.rows.trajectory(run.ID, traj)
		if err != nil {
			return n, err
		}
		if newTask {
			if err := p.tasks.add(task, len(task.Instruction)+len(task.Actions)+len(task.Outputs)+len(str(task.Scenario))); err != nil {
				return n, err
			}
		}
		if err := p.trajs.add(t, 256+len(str(t.RewardInfo))+len(str(t.Extra))+len(str(t.Error))); err != nil {
			return n, err
		}
		for _, m := range msgs {
			if err := p.msgs.add(m, 64+len(m.Content)+len(str(m.ToolCalls))+len(str(m.ToolArguments))); err != nil {
				return n, err
			}
		}
		n++
	}
	return n, nil
}

// Close implements TableWriter.
func (p *Parquet) Close() error {
	for _, t := range []interface{ close() error }{p.runs, p.tasks, p.trajs, p.msgs} {
		if err := t.close(); err != nil {
			return err
		}
	}
	return nil
}

// table is one Parquet file being written: rows are batched, and a row
// group is cut once about parquetRowGroupBytes are buffered.
type table[T any] struct {
	w        *parquet.GenericWriter[T]
	batch    []T
	buffered int
}

func newTable[T any](w io.Writer) *table[T] {
	pw := parquet.NewGenericWriter[T](w, parquet.Compression(&parquet.Zstd),
		parquet.KeyValueMetadata("emobench.schema", ParquetSchemaVersion))
	return &table[T]{w: pw, batch: make([]T, 0, parquetBatch)}
}

// add buffers row, whose size is about size bytes.
func (t *table[T]) add(row T, size int) error {
	t.batch = append(t.batch, row)
	t.buffered += size
	if len(t.batch) < parquetBatch && t.buffered < parquetRowGroupBytes {
		return nil
	}
	if err := t.write(); err != nil {
		return err
	}
	if t.buffered >= parquetRowGroupBytes {
		t.buffered = 0
		return t.w.Flush()
	}
	return nil
}

func (t *table[T]) write() error {
	if len(t.batch) == 0 {
		return nil
	}
	_, err := t.w.Write(t.batch)
	clear(t.batch)
	t.batch = t.batch[:0]
	return err
}

func (t *table[T]) close() error {
	if err := t.write(); err != nil {
		return err
	}
	return t.w.Close()
}
