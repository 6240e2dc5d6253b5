//! What a field is called and what an action is called.
//!
//! A field's labels are collected from every source at once, best first, because pages
//! disagree about which one they use and the later consumers (value generators, reports)
//! want the most descriptive text with the rest as fallbacks.

use crate::context::{Ctx, VisibleText};
use crate::model::{Label, LabelSource, Rect};
use crate::text::{MAX_TEXT_CHARS, clean_label, collapse, truncate};

/// How far a caption may sit from its field, in CSS pixels.
const NEAREST_TEXT_RANGE: f64 = 200.0;
/// How far left of its field a caption above may end and still count.
const CAPTION_INDENT: f64 = 40.0;
/// Most nodes a caption's block container may have.
const CAPTION_BLOCK_NODES: usize = 32;
/// Slack for sub-pixel layout and borders when comparing edges.
const EDGE_SLACK: f64 = 4.0;

/// All labels of the control `n`, best first: `<label for>`, wrapping `<label>`,
/// `aria-label`, `aria-labelledby`, `placeholder`, `title`, nearest text.
pub(crate) fn field_labels(ctx: &Ctx<'_>, n: usize, text_on_right: bool) -> Vec<Label> {
    let doc = &ctx.doc;
    let mut labels = Vec::new();
    let mut push = |text: String, source: LabelSource| {
        let text = clean_label(&text);
        if !text.is_empty() {
            labels.push(Label { text, source });
        }
    };
    if let Some(found) = ctx.control_labels.get(&n) {
        for wanted in [LabelSource::For, LabelSource::Wrapping] {
            for &(label, source) in found {
                if source == wanted {
                    push(ctx.label_text(label), source);
                }
            }
        }
    }
    if let Some(v) = doc.attr_nonblank(n, "aria-label") {
        push(v.to_string(), LabelSource::AriaLabel);
    }
    if let Some(v) = ctx.labelledby_text(n) {
        push(v, LabelSource::AriaLabelledBy);
    }
    if let Some(v) = doc.attr_nonblank(n, "placeholder") {
        push(v.to_string(), LabelSource::Placeholder);
    }
    if let Some(v) = doc.attr_nonblank(n, "title") {
        push(v.to_string(), LabelSource::Title);
    }
    if let Some(v) = nearest_text(ctx, n, text_on_right) {
        push(v, LabelSource::NearestText);
    }
    labels
}

/// Where a caption sits relative to its field.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Placement {
    Left,
    Right,
    Above,
}

/// The closest free-standing visible text left of the field on its line or above it
/// (and, for checkboxes and radios, right of it), unless another control sits between.
/// When the closest text is the field's own label, that label already says it all.
pub(crate) fn nearest_text(ctx: &Ctx<'_>, n: usize, text_on_right: bool) -> Option<String> {
    if !ctx.visible(n) {
        return None;
    }
    let field = ctx.rect(n);
    let doc = &ctx.doc;
    let mut own_labels: Vec<usize> = ctx
        .control_labels
        .get(&n)
        .map(|l| l.iter().map(|&(label, _)| label).collect())
        .unwrap_or_default();
    if let Some(ids) = doc.attr(n, "aria-labelledby") {
        own_labels.extend(
            ids.split_ascii_whitespace()
                .filter_map(|id| doc.element_by_id(id)),
        );
    }
    let mut best: Option<(f64, &VisibleText, bool)> = None;
    let band_top = field.y - NEAREST_TEXT_RANGE - ctx.max_text_height - EDGE_SLACK;
    let band_bottom = field.y + field.height + EDGE_SLACK;
    for t in ctx.texts_in_band(band_top, band_bottom) {
        let Some((distance, placement)) = caption_distance(t.rect, field, text_on_right) else {
            continue;
        };
        // Ties go to the earlier text in document order, whatever order the band is in.
        let better =
            best.is_none_or(|(d, b, _)| distance < d || (distance == d && t.node < b.node));
        if distance > NEAREST_TEXT_RANGE || !better || doc.is_ancestor(n, t.node) {
            continue;
        }
        let own = doc.ancestors(t.node).any(|a| own_labels.contains(&a));
        if t.owned && !own {
            continue;
        }
        let top = t.rect.y.min(field.y) - ctx.max_control_height - EDGE_SLACK;
        let bottom = (t.rect.y + t.rect.height).max(field.y + field.height) + EDGE_SLACK;
        let blocked = ctx.controls_in_band(top, bottom).any(|(c, r)| {
            c != n
                && !doc.is_ancestor(c, n)
                && (between(t.rect, r, field)
                    || (placement == Placement::Above && captions(t.rect, r)))
        });
        if blocked {
            continue;
        }
        best = Some((distance, t, own));
    }
    let (_, t, own) = best?;
    if own {
        return None;
    }
    Some(caption_block_text(ctx, t).unwrap_or_else(|| t.text.clone()))
}

/// Distance from caption to field if the caption is placed where captions go.
fn caption_distance(t: Rect, f: Rect, text_on_right: bool) -> Option<(f64, Placement)> {
    let t_mid_y = t.y + t.height / 2.0;
    let same_line = t_mid_y >= f.y - EDGE_SLACK && t_mid_y <= f.y + f.height + EDGE_SLACK;
    if same_line && t.x + t.width <= f.x + EDGE_SLACK {
        return Some(((f.x - (t.x + t.width)).max(0.0), Placement::Left));
    }
    if same_line && text_on_right && t.x >= f.x + f.width - EDGE_SLACK {
        return Some(((t.x - (f.x + f.width)).max(0.0), Placement::Right));
    }
    let above = t.y + t.height <= f.y + EDGE_SLACK;
    // A caption above may start a little left of the field (indented inputs).
    let overlaps_x = t.x < f.x + f.width && t.x + t.width > f.x - CAPTION_INDENT;
    if above && overlaps_x {
        return Some(((f.y - (t.y + t.height)).max(0.0), Placement::Above));
    }
    None
}

/// Whether text `t` is the left-hand caption of control box `c` on its own line, and so
/// not the caption of a field further down.
fn captions(t: Rect, c: Rect) -> bool {
    let t_mid_y = t.y + t.height / 2.0;
    let same_line = t_mid_y >= c.y - EDGE_SLACK && t_mid_y <= c.y + c.height + EDGE_SLACK;
    let gap = c.x - (t.x + t.width);
    same_line && (-EDGE_SLACK..=NEAREST_TEXT_RANGE).contains(&gap)
}

/// Whether control box `c` lies between caption `t` and field `f`.
fn between(t: Rect, c: Rect, f: Rect) -> bool {
    let c_mid_y = c.y + c.height / 2.0;
    let t_mid_y = t.y + t.height / 2.0;
    let f_mid_y = f.y + f.height / 2.0;
    let same_line =
        |mid: f64, r: Rect| mid >= r.y - EDGE_SLACK && mid <= r.y + r.height + EDGE_SLACK;
    if same_line(t_mid_y, f) && same_line(c_mid_y, f) {
        let (left, right) = if t.x <= f.x {
            (t.x + t.width, f.x)
        } else {
            (f.x + f.width, t.x)
        };
        return c.x >= left - EDGE_SLACK && c.x + c.width <= right + EDGE_SLACK;
    }
    let overlaps_x = c.x < f.x + f.width && c.x + c.width > f.x;
    overlaps_x
        && c.y >= t.y + t.height - EDGE_SLACK
        && c.y + c.height <= f.y + EDGE_SLACK
        && c_mid_y < f_mid_y
}

/// The whole caption when the chosen text node is one piece of it (`Date of <b>birth</b>`):
/// the text of its nearest block container, if that holds no control and stays short.
fn caption_block_text(ctx: &Ctx<'_>, t: &VisibleText) -> Option<String> {
    let doc = &ctx.doc;
    let block = doc.ancestors(t.node).find(|&a| {
        doc.display(a)
            .is_some_and(|d| !d.starts_with("inline") && d != "contents")
    })?;
    if matches!(doc.tag(block), "body" | "html" | "form" | "fieldset") {
        return None;
    }
    // A caption's block is small; a big one is a layout container, not a caption.
    let subtree = doc.subtree_limited(block, CAPTION_BLOCK_NODES)?;
    let has_control = subtree
        .into_iter()
        .any(|c| matches!(doc.tag(c), "input" | "select" | "textarea" | "button"));
    if has_control {
        return None;
    }
    let text = ctx.visible_text(block);
    (text.chars().count() <= MAX_TEXT_CHARS && !text.is_empty()).then_some(text)
}

/// The accessible name of an action's element, as a screen reader would announce it:
/// `aria-labelledby`, `aria-label`, the field's labels, an input button's value or alt,
/// the visible content (with image `alt`s), then `title`.
pub(crate) fn accessible_name(ctx: &Ctx<'_>, n: usize, field_labels: Option<&[Label]>) -> String {
    let doc = &ctx.doc;
    let tag = doc.tag(n);
    let input_type = doc
        .attr(n, "type")
        .map(|t| t.trim().to_ascii_lowercase())
        .unwrap_or_default();
    let name = ctx
        .labelledby_text(n)
        .or_else(|| doc.attr_nonblank(n, "aria-label").map(str::to_string))
        .or_else(|| field_labels.and_then(|l| l.first()).map(|l| l.text.clone()))
        .or_else(|| {
            if tag != "input" {
                return None;
            }
            match input_type.as_str() {
                "submit" => Some(doc.attr(n, "value").unwrap_or("Submit").to_string()),
                "reset" => Some(doc.attr(n, "value").unwrap_or("Reset").to_string()),
                "button" => doc.attr(n, "value").map(str::to_string),
                "image" => doc
                    .attr_nonblank(n, "alt")
                    .or_else(|| doc.attr_nonblank(n, "value"))
                    .map(str::to_string)
                    .or_else(|| Some("Submit".to_string())),
                _ => None,
            }
        })
        .map(|s| collapse(&s))
        .filter(|s| !s.is_empty())
        .or_else(|| {
            let content = ctx.visible_text(n);
            (!content.is_empty()).then_some(content)
        })
        .or_else(|| doc.attr_nonblank(n, "title").map(collapse))
        .unwrap_or_default();
    truncate(&name, MAX_TEXT_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(x: f64, y: f64, width: f64, height: f64) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn captions_left_on_the_line_or_above() {
        let field = r(100.0, 100.0, 150.0, 20.0);
        assert_eq!(
            caption_distance(r(20.0, 102.0, 60.0, 16.0), field, false),
            Some((20.0, Placement::Left))
        );
        assert_eq!(
            caption_distance(r(100.0, 60.0, 60.0, 16.0), field, false),
            Some((24.0, Placement::Above))
        );
        // Right of the field only counts for checkboxes and radios.
        assert_eq!(
            caption_distance(r(260.0, 102.0, 60.0, 16.0), field, false),
            None
        );
        assert_eq!(
            caption_distance(r(260.0, 102.0, 60.0, 16.0), field, true),
            Some((10.0, Placement::Right))
        );
        // Below is never a caption.
        assert_eq!(
            caption_distance(r(100.0, 140.0, 60.0, 16.0), field, false),
            None
        );
    }

    #[test]
    fn a_control_in_between_blocks_a_caption() {
        let caption = r(100.0, 0.0, 60.0, 16.0);
        let other = r(100.0, 40.0, 150.0, 20.0);
        let field = r(100.0, 100.0, 150.0, 20.0);
        assert!(between(caption, other, field));
        assert!(!between(caption, r(400.0, 40.0, 150.0, 20.0), field));
        let left = r(0.0, 102.0, 40.0, 16.0);
        assert!(between(left, r(50.0, 100.0, 20.0, 20.0), field));
    }

    #[test]
    fn text_left_of_a_control_captions_that_control() {
        let text = r(0.0, 100.0, 40.0, 16.0);
        assert!(captions(text, r(45.0, 98.0, 13.0, 13.0)));
        assert!(!captions(text, r(45.0, 140.0, 13.0, 13.0)));
        assert!(!captions(text, r(400.0, 98.0, 13.0, 13.0)));
    }
}
