//! The wire format of `DOMSnapshot.captureSnapshot`, exactly as Chromium sends it.
//!
//! `curio-browser` deserialises the command's response straight into these types, and
//! test fixtures are that same JSON saved to disk, so the page model is tested on what a
//! real browser produced. Every string is an index into [`DomSnapshot::strings`]
//! (`-1` means absent). Fields a given Chromium omits default to empty.

use serde::{Deserialize, Serialize};

/// Computed styles requested from Chromium, in this order. `LayoutTreeSnapshot::styles`
/// holds one string index per entry for every layout object.
pub const COMPUTED_STYLES: [&str; 4] = ["display", "visibility", "opacity", "cursor"];

/// Index into [`DomSnapshot::strings`]; negative means "no string".
pub type StringIndex = i64;

/// A whole `captureSnapshot` answer: one document per frame, plus the shared string table.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DomSnapshot {
    pub documents: Vec<DocumentSnapshot>,
    pub strings: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DocumentSnapshot {
    #[serde(rename = "documentURL")]
    pub document_url: StringIndex,
    pub title: StringIndex,
    #[serde(rename = "baseURL")]
    pub base_url: StringIndex,
    pub frame_id: StringIndex,
    pub nodes: NodeTreeSnapshot,
    pub layout: LayoutTreeSnapshot,
    pub text_boxes: TextBoxSnapshot,
    pub scroll_offset_x: Option<f64>,
    pub scroll_offset_y: Option<f64>,
    pub content_width: Option<f64>,
    pub content_height: Option<f64>,
}

/// Nodes in document order; `parent_index[i]` is the parent of node `i` (-1 for the root).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct NodeTreeSnapshot {
    pub parent_index: Vec<i64>,
    pub node_type: Vec<i64>,
    pub shadow_root_type: RareStringData,
    pub node_name: Vec<StringIndex>,
    pub node_value: Vec<StringIndex>,
    pub backend_node_id: Vec<i64>,
    /// Per node: alternating attribute name and value string indices.
    pub attributes: Vec<Vec<StringIndex>>,
    pub text_value: RareStringData,
    pub input_value: RareStringData,
    pub input_checked: RareBooleanData,
    pub option_selected: RareBooleanData,
    pub content_document_index: RareIntegerData,
    pub pseudo_type: RareStringData,
    pub is_clickable: RareBooleanData,
    #[serde(rename = "currentSourceURL")]
    pub current_source_url: RareStringData,
    #[serde(rename = "originURL")]
    pub origin_url: RareStringData,
}

/// Layout objects; `node_index[i]` is the node that layout object `i` belongs to.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct LayoutTreeSnapshot {
    pub node_index: Vec<i64>,
    /// Per layout object: one string index per [`COMPUTED_STYLES`] entry.
    pub styles: Vec<Vec<StringIndex>>,
    /// Per layout object: `[x, y, width, height]` in document coordinates.
    pub bounds: Vec<Vec<f64>>,
    pub text: Vec<StringIndex>,
    pub stacking_contexts: RareBooleanData,
    pub paint_orders: Vec<i64>,
    pub offset_rects: Vec<Vec<f64>>,
    pub scroll_rects: Vec<Vec<f64>>,
    pub client_rects: Vec<Vec<f64>>,
}

/// Inline text boxes; `layout_index[i]` is the layout object (a text node's) they belong to.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TextBoxSnapshot {
    pub layout_index: Vec<i64>,
    pub bounds: Vec<Vec<f64>>,
    pub start: Vec<i64>,
    pub length: Vec<i64>,
}

/// Sparse string data: `value[k]` belongs to node `index[k]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RareStringData {
    pub index: Vec<i64>,
    pub value: Vec<StringIndex>,
}

/// Sparse boolean data: the nodes listed in `index` have the property.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RareBooleanData {
    pub index: Vec<i64>,
}

/// Sparse integer data: `value[k]` belongs to node `index[k]`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct RareIntegerData {
    pub index: Vec<i64>,
    pub value: Vec<i64>,
}
