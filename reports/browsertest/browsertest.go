// Package browsertest checks the layout of an emobench report that a
// browser test has loaded: ReadLayout reads back every chart's text boxes,
// legend, toolbox and plot rectangles as echarts' SVG renderer drew them,
// and LayoutProblems lists what overlaps. It uses the standard library
// only; the tests drive the browser (chromedp) themselves.
package browsertest

import "fmt"

// Rect is a rectangle in a chart container's coordinates, in CSS px.
type Rect struct {
	X, Y, W, H float64
	Text       string `json:"text,omitempty"` // the text drawn in it, for a text box
}

// Overlaps reports whether r and o share an area more than 0.5 px across
// in both directions: boxes that only touch do not overlap.
func (r Rect) Overlaps(o Rect) bool {
	const slack = 0.5
	return r.X+slack < o.X+o.W && o.X+slack < r.X+r.W && r.Y+slack < o.Y+o.H && o.Y+slack < r.Y+r.H
}

// ChartLayout is what a chart drew: the boxes of its SVG text elements,
// its legends' and toolboxes' boxes and its plot grids' rectangles.
type ChartLayout struct {
	ID        string  `json:"id"`
	W         float64 `json:"w"` // the chart container's size
	H         float64 `json:"h"`
	Texts     []Rect  `json:"texts"`
	Legends   []Rect  `json:"legends"`
	Toolboxes []Rect  `json:"toolboxes"`
	Grids     []Rect  `json:"grids"`
}

// ReadLayout is a JavaScript expression that reads every chart's layout
// as a JSON array of ChartLayout; evaluate it in the loaded page. Text boxes come from the SVG
// (what the browser drew); legend and grid rectangles from echarts' own
// component views and coordinate systems.
const ReadLayout = `[...document.querySelectorAll(".chart")].map(c => {
  const e = echarts.getInstanceByDom(c), b = c.getBoundingClientRect();
  const texts = [...c.querySelectorAll("svg text")].map(t => {
    const r = t.getBoundingClientRect();
    return {X: r.left - b.left, Y: r.top - b.top, W: r.width, H: r.height, text: t.textContent};
  }).filter(r => r.W > 0 && r.H > 0 && r.text.trim() !== "");
  const legends = [], toolboxes = [], grids = [];
  if (e) {
    const model = e.getModel();
    const boxes = (type, out) => model.eachComponent(type, m => {
      if (!m.get("show")) return;
      const view = e.getViewOfComponentModel(m);
      if (!view || !view.group) return;
      const r = view.group.getBoundingRect().clone();
      r.applyTransform(view.group.getComputedTransform());
      if (r.width > 0) out.push({X: r.x, Y: r.y, W: r.width, H: r.height});
    });
    boxes("legend", legends);
    boxes("toolbox", toolboxes);
    model.eachComponent("grid", m => {
      const r = m.coordinateSystem && m.coordinateSystem.getRect();
      if (r) grids.push({X: r.x, Y: r.y, W: r.width, H: r.height});
    });
  }
  return {id: c.id, w: b.width, h: b.height, texts, legends, toolboxes, grids};
})`

// LayoutProblems lists, for each chart of layouts, the text boxes that
// reach past the chart's edge, the pairs of text boxes that overlap and
// the legends that meet a plot grid or a toolbox.
func LayoutProblems(layouts []ChartLayout) []string {
	var out []string
	for _, l := range layouts {
		box := Rect{W: l.W, H: l.H}
		for _, a := range l.Texts {
			const slack = 0.5
			if a.X < -slack || a.Y < -slack || a.X+a.W > box.W+slack || a.Y+a.H > box.H+slack {
				out = append(out, fmt.Sprintf("%s: text %q at %s is cut by the chart's edge %s", l.ID, a.Text, a.box(), box.box()))
			}
		}
		for i, a := range l.Texts {
			for _, b := range l.Texts[i+1:] {
				if a.Overlaps(b) {
					out = append(out, fmt.Sprintf("%s: text %q at %s overlaps %q at %s", l.ID, a.Text, a.box(), b.Text, b.box()))
				}
			}
		}
		for _, g := range l.Legends {
			for _, p := range l.Grids {
				if g.Overlaps(p) {
					out = append(out, fmt.Sprintf("%s: legend at %s meets the plot at %s", l.ID, g.box(), p.box()))
				}
			}
			for _, b := range l.Toolboxes {
				if g.Overlaps(b) {
					out = append(out, fmt.Sprintf("%s: legend at %s meets the toolbox at %s", l.ID, g.box(), b.box()))
				}
			}
		}
	}
	return out
}

func (r Rect) box() string {
	return fmt.Sprintf("(%.0f,%.0f %.0f×%.0f)", r.X, r.Y, r.W, r.H)
}
