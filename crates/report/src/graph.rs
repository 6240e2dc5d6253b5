//! The state graph as SVG, laid out by `layout-rs` (pure Rust, no graphviz): a box per
//! state, an arrow per pair of states a move led between, each state linked to its
//! screenshot.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use curio_record::{RunRecord, StateRecord};
use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::style::StyleAttr;
use layout::std_shapes::render::get_shape_size;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;

use crate::view::clean;

/// States drawn at most; a longer run's graph shows its first states (the list below the
/// graph has them all). layout-rs's time grows fast with the graph: 100 states and 200
/// arrows take seconds, 500 and 1,000 minutes.
pub(crate) const MAX_STATES: usize = 60;

/// Arrows drawn at most (those between the earliest states first).
const MAX_ARROWS: usize = 150;

/// Above this many boxes and arrows, layout-rs's crossing reduction is skipped: it is
/// what takes the time.
const OPTIMISE_UP_TO: usize = 120;

/// How long the layout may take before the report goes without the graph.
const LAYOUT_TIME: std::time::Duration = std::time::Duration::from_secs(20);

/// Longest label on a box, in characters.
const MAX_LABEL: usize = 36;

/// Longest label on an arrow, in characters: layout-rs sets each between the columns it
/// joins, so long ones spread the graph over many screens.
const MAX_ARROW_LABEL: usize = 18;

/// The graph as an SVG element to inline in HTML; empty when the run has no states or
/// its layout takes too long (it runs on its own thread, left behind if so).
pub(crate) fn state_graph(record: &RunRecord) -> String {
    let record = record.clone();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(layout(&record));
    });
    receive.recv_timeout(LAYOUT_TIME).unwrap_or_default()
}

fn layout(record: &RunRecord) -> String {
    let shown: Vec<&StateRecord> = record.states.iter().take(MAX_STATES).collect();
    if shown.is_empty() {
        return String::new(); // layout-rs cannot lay out an empty graph
    }
    let dir = Orientation::LeftToRight;
    let mut graph = VisualGraph::new(dir);
    let mut handles = BTreeMap::new();
    for state in &shown {
        let label = format!("S{} {}", state.id, path_of(&state.url));
        let handle = add_box(&mut graph, dir, &label, &format!("state-node-{}", state.id));
        handles.insert(Some(state.id), handle);
    }
    let arrows = tree(record, &handles);
    if arrows.iter().any(|(_, to, _)| to.is_none()) {
        let outside = add_box(&mut graph, dir, "outside the app", "state-node-outside");
        handles.insert(None, outside);
    }
    for (i, (from, to, action)) in arrows.iter().enumerate() {
        let label = shorten(
            action.strip_prefix("click ").unwrap_or(action),
            MAX_ARROW_LABEL,
        );
        let arrow = Arrow::simple_with_properties(&label, format!(r#"id="edge-{i}""#));
        graph.add_edge(arrow, handles[&Some(*from)], handles[to]);
    }
    let mut svg = SVGWriter::new();
    let optimise = shown.len() + arrows.len() <= OPTIMISE_UP_TO;
    graph.do_it(false, !optimise, false, &mut svg);
    let mut out = svg.finalize();
    // Links over the boxes, placed once the layout is final: to the state's screenshot,
    // else to its row in the list of states.
    let mut links = String::new();
    for state in &shown {
        let (top_left, bottom_right) = graph.pos(handles[&Some(state.id)]).bbox(false);
        let href = match &state.screenshot {
            Some(s) => s.clone(),
            None => format!("#state-{}", state.id),
        };
        let _ = write!(
            links,
            r#"<a href="{}" class="state-link"><rect x="{}" y="{}" width="{}" height="{}" fill="transparent" pointer-events="all"><title>{}</title></rect></a>"#,
            escape(&href),
            top_left.x,
            top_left.y,
            bottom_right.x - top_left.x,
            bottom_right.y - top_left.y,
            escape(&clean(&state.url)),
        );
    }
    if let Some(end) = out.rfind("</svg>") {
        out.insert_str(end, &links);
    }
    // Inlined in HTML: no XML prolog.
    if out.starts_with("<?xml")
        && let Some(i) = out.find("?>")
    {
        out.drain(..i + 2);
    }
    out
}

/// The arrows drawn: how each state shown was first reached from the start state, breadth
/// first over the moves in the order they were first taken (a tree of shortest ways,
/// whose depth stays small where all the moves would make long chains and a picture
/// many screens wide), plus, for each state that has one, its first move out of the app.
fn tree(
    record: &RunRecord,
    shown: &BTreeMap<Option<u32>, layout::adt::dag::NodeHandle>,
) -> Vec<(u32, Option<u32>, String)> {
    let mut out: BTreeMap<u32, Vec<(Option<u32>, &str)>> = BTreeMap::new();
    for t in &record.transitions {
        out.entry(t.from).or_default().push((t.to, &t.action));
    }
    let mut arrows = Vec::new();
    let mut reached: std::collections::BTreeSet<u32> = std::collections::BTreeSet::new();
    let mut left_app: std::collections::BTreeSet<u32> = std::collections::BTreeSet::new();
    let mut queue = std::collections::VecDeque::new();
    let roots = record
        .states
        .iter()
        .map(|s| s.id)
        .filter(|id| shown.contains_key(&Some(*id)));
    for root in roots {
        if !reached.insert(root) {
            continue;
        }
        queue.push_back(root);
        while let Some(from) = queue.pop_front() {
            for &(to, action) in out.get(&from).into_iter().flatten() {
                if arrows.len() >= MAX_ARROWS {
                    return arrows;
                }
                match to {
                    None if left_app.insert(from) => arrows.push((from, None, action.to_string())),
                    Some(to) if shown.contains_key(&Some(to)) && reached.insert(to) => {
                        arrows.push((from, Some(to), action.to_string()));
                        queue.push_back(to);
                    }
                    _ => {}
                }
            }
        }
    }
    arrows
}

fn add_box(
    graph: &mut VisualGraph,
    dir: Orientation,
    label: &str,
    id: &str,
) -> layout::adt::dag::NodeHandle {
    let shape = ShapeKind::new_box(&clean(label));
    let look = StyleAttr::simple();
    let size = get_shape_size(dir, &shape, look.font_size, false);
    let element = Element::create_with_properties(shape, look, dir, size, format!(r#"id="{id}""#));
    graph.add_node(element)
}

/// The URL without its origin: what tells two pages of one app apart.
fn path_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let path = rest.find('/').map_or("/", |i| &rest[i..]);
    shorten(path, MAX_LABEL)
}

fn shorten(text: &str, max: usize) -> String {
    let text = clean(text);
    if text.chars().count() <= max {
        return text;
    }
    let mut short: String = text.chars().take(max - 1).collect();
    short.push('…');
    short
}

/// Escapes text for an SVG attribute or text node.
fn escape(text: &str) -> String {
    minijinja::HtmlEscape(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use curio_record::{Coverage, RunId, RunMeta, SCHEMA_VERSION, StateRecord, TransitionRecord};

    fn record(states: Vec<StateRecord>, transitions: Vec<TransitionRecord>) -> RunRecord {
        RunRecord {
            schema_version: SCHEMA_VERSION,
            run_id: RunId(1),
            meta: RunMeta {
                tool_version: "0".into(),
                start_url: "http://127.0.0.1/".into(),
                strategy: "curious".into(),
                seed: 1,
                browser_version: "Chrome".into(),
                started_at_ms: 0,
                config: serde_json::json!({}),
            },
            steps: vec![],
            findings: vec![],
            observations: vec![],
            coverage: Coverage::default(),
            states,
            transitions,
            progress: vec![],
            forms: vec![],
            summary: None,
        }
    }

    fn state(id: u32, url: &str, screenshot: Option<&str>) -> StateRecord {
        StateRecord {
            id,
            url: url.into(),
            first_step: id,
            screenshot: screenshot.map(str::to_string),
        }
    }

    #[test]
    fn app_text_in_labels_is_escaped_and_states_link_to_screenshots() {
        let svg = state_graph(&record(
            vec![
                state(0, "http://127.0.0.1/", Some("screenshots/state-0.png")),
                state(1, "http://127.0.0.1/<script>alert(1)</script>", None),
            ],
            vec![
                TransitionRecord {
                    from: 0,
                    to: Some(1),
                    action: r#"click button "<img src=x onerror=alert(1)>""#.into(),
                    count: 2,
                },
                TransitionRecord {
                    from: 1,
                    to: None,
                    action: "click link \"Help\"".into(),
                    count: 1,
                },
            ],
        ));
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(!svg.contains("<script"), "{svg}");
        assert!(!svg.contains("<img"), "{svg}");
        assert!(svg.contains("&lt;script&gt;"), "{svg}");
        // Attribute values are escaped too (`/` as `&#x2f;`), which browsers decode.
        let decoded = svg.replace("&#x2f;", "/");
        assert!(
            decoded.contains(r#"href="screenshots/state-0.png""#),
            "{svg}"
        );
        assert!(svg.contains(r##"href="#state-1""##), "{svg}");
        assert!(svg.contains("outside the app"), "{svg}");
    }

    #[test]
    fn a_long_run_still_gets_its_graph() {
        let states = (0..200)
            .map(|i| state(i, &format!("http://127.0.0.1/page/{i}"), None))
            .collect();
        // Every state leads to five others: far more arrows than are drawn.
        let transitions = (0..200u32)
            .flat_map(|i| {
                (1..=5).map(move |k| TransitionRecord {
                    from: i,
                    to: Some((i * 7 + k * 13) % 200),
                    action: format!("click link \"{k}\""),
                    count: 1,
                })
            })
            .collect();
        let svg = state_graph(&record(states, transitions));
        assert!(svg.starts_with("<svg"), "laid out in time");
        assert_eq!(svg.matches("class=\"state-link\"").count(), MAX_STATES);
    }

    #[test]
    fn no_states_no_graph() {
        assert_eq!(state_graph(&record(vec![], vec![])), "");
    }
}
