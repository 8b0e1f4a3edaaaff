package tracer_test

import (
	"testing"

	"github.com/emobench/emobench/tracer"
)

// BenchmarkAudit audits the embedded test tasks of each domain with the
// rules only (two oracle episodes per task) and reports tasks/s.
func BenchmarkAudit(b *testing.B) {
	for _, name := range []string{"retail", "airline"} {
		b.Run(name, func(b *testing.B) {
			dom := findDomain(b, name)
			tasks := dom.Tasks()
			b.ResetTimer()
			for b.Loop() {
				if _, err := tracer.Audit(b.Context(), tasks, dom, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N*len(tasks))/b.Elapsed().Seconds(), "tasks/s")
		})
	}
}
