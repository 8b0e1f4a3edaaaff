package analysis

import (
	"fmt"
	"math"
	"slices"
)

// MatrixCell is one model's pass^1 on one domain: a cell of a PassMatrix.
type MatrixCell struct {
	Domain string
	Model  string // the column: an agent model, or a unit of one (see PooledMatrix)
	Pass1  float64
	// Tasks is the number of tasks behind Pass1; RunIDs are the runs of
	// the unit the cell is from; NotEvaluated is set when none of its
	// trajectories has reward information (Pass1 is then NaN, never 0).
	Tasks        int
	RunIDs       []int64
	NotEvaluated bool
}

// PassMatrix is a domain × model table of pass^1.
type PassMatrix struct {
	Domains []string // row labels, sorted
	Models  []string // column labels, sorted
	// Pass1[i][j] is model Models[j]'s pass^1 on domain Domains[i]; NaN
	// when no cell was given.
	Pass1 [][]float64
	// Tasks[i][j] is the number of tasks behind Pass1[i][j]; 0 when no cell
	// was given.
	Tasks [][]int
	// NotEvaluated[i][j] is set when cell (i, j) is not evaluated.
	NotEvaluated [][]bool
	// RunIDs[i] are the runs behind row i's cells, in column order.
	RunIDs [][]int64
}

// Matrix shapes cells into a domain × model matrix with sorted labels and
// NaN for missing cells. It returns an error naming the first (domain,
// model) pair given twice. Empty input gives an empty matrix.
func Matrix(cells []MatrixCell) (PassMatrix, error) {
	var m PassMatrix
	for _, c := range cells {
		m.Domains = append(m.Domains, c.Domain)
		m.Models = append(m.Models, c.Model)
	}
	slices.Sort(m.Domains)
	m.Domains = slices.Compact(m.Domains)
	slices.Sort(m.Models)
	m.Models = slices.Compact(m.Models)
	m.Pass1 = make([][]float64, len(m.Domains))
	m.Tasks = make([][]int, len(m.Domains))
	m.NotEvaluated = make([][]bool, len(m.Domains))
	m.RunIDs = make([][]int64, len(m.Domains))
	for i := range m.Pass1 {
		m.Pass1[i] = make([]float64, len(m.Models))
		m.Tasks[i] = make([]int, len(m.Models))
		m.NotEvaluated[i] = make([]bool, len(m.Models))
		for j := range m.Pass1[i] {
			m.Pass1[i][j] = math.NaN()
		}
	}
	at := map[[2]string]MatrixCell{}
	for _, c := range cells {
		k := [2]string{c.Domain, c.Model}
		if _, seen := at[k]; seen {
			return PassMatrix{}, fmt.Errorf("matrix: cell (%s, %s) given twice", c.Domain, c.Model)
		}
		at[k] = c
		i, _ := slices.BinarySearch(m.Domains, c.Domain)
		j, _ := slices.BinarySearch(m.Models, c.Model)
		m.Pass1[i][j], m.Tasks[i][j], m.NotEvaluated[i][j] = c.Pass1, c.Tasks, c.NotEvaluated
	}
	for i, d := range m.Domains {
		for _, model := range m.Models {
			if c, ok := at[[2]string{d, model}]; ok {
				m.RunIDs[i] = append(m.RunIDs[i], c.RunIDs...)
			}
		}
	}
	return m, nil
}

// PooledMatrix is the pass^1 of every unit on its domain, from the k = 1
// rows (with no group fields) of PassK over units, as a domain × agent
// model matrix. When one agent model has several units on a domain, its
// columns name each unit: "agent (run N)", or, pooled, "agent / user model
// / condition" (its known fields). A unit whose agent model is unknown is
// the column "run N". Rows of another k are ignored; a unit given twice is an
// error naming its cell.
func PooledMatrix(rows []PassKRow, units Units) (PassMatrix, error) {
	var first []PassKRow
	count := map[[2]string]int{}
	for _, r := range rows {
		if r.K == 1 {
			u := units.ByID(r.RunID)
			first = append(first, r)
			count[[2]string{u.Key.Domain, u.Key.AgentModel}]++
		}
	}
	ambiguous := map[string]bool{}
	for k, n := range count {
		if n > 1 {
			ambiguous[k[1]] = true
		}
	}
	cells := make([]MatrixCell, 0, len(first))
	for _, r := range first {
		u := units.ByID(r.RunID)
		col := u.Key.AgentModel
		switch {
		case col == "" || col == Unknown:
			col = fmt.Sprintf("run %d", u.ID) // such a unit is never pooled: one run
		case ambiguous[col] && u.Pooled:
			col = KnownLabel(u.Key.AgentModel, u.Key.UserModel, u.Key.Condition)
		case ambiguous[col]:
			col = fmt.Sprintf("%s (run %d)", u.Key.AgentModel, u.ID)
		}
		cells = append(cells, MatrixCell{
			Domain: u.Key.Domain, Model: col, Pass1: r.PassHatK,
			Tasks: r.Tasks, RunIDs: u.RunIDs, NotEvaluated: r.NotEvaluated,
		})
	}
	return Matrix(cells)
}

// NotEvaluatedCells names the cells of m that are not evaluated, "model on
// domain", in row then column order.
func (m PassMatrix) NotEvaluatedCells() []string {
	var out []string
	for i, row := range m.NotEvaluated {
		for j, ne := range row {
			if ne {
				out = append(out, m.Models[j]+" on "+m.Domains[i])
			}
		}
	}
	return out
}
