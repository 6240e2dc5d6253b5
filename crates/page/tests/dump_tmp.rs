use curio_page::*;
#[test]
fn dump() {
    for name in [
        "shop",
        "shop-reload",
        "register",
        "search",
        "table",
        "iframe",
    ] {
        let path = format!("{}/tests/fixtures/{name}.json", env!("CARGO_MANIFEST_DIR"));
        let s: DomSnapshot = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let p = Page::from_snapshot(&s);
        println!(
            "===== {name} {} | {} | {}",
            p.url, p.normalized_url, p.title
        );
        for a in &p.actions {
            println!(
                "  {:?} role={} tag={} text={:?} key={} sel={} loc={} href={:?} form={:?} rect={:?}",
                a.kind,
                a.role,
                a.tag,
                a.text,
                a.key.0,
                a.target.selector,
                a.target.locator,
                a.href,
                a.form,
                a.target.rect
            );
            if let Some(f) = &a.field {
                println!(
                    "      field type={} labels={:?} value={:?} checked={} opts={:?}",
                    f.input_type, f.labels, f.value, f.checked, f.options
                );
            }
        }
        for f in &p.forms {
            println!(
                "  FORM {:?} key={} name={:?} id={:?} action={:?} method={:?} title={:?} submit={:?}",
                f.id,
                f.key.0,
                f.name,
                f.html_id,
                f.action,
                f.method,
                f.title,
                f.submit.as_ref().map(|t| &t.locator)
            );
            for fl in &f.fields {
                println!(
                    "     {} {:?} {:?} req={} ro={} min={:?} max={:?} step={:?} minl={:?} maxl={:?} pat={:?} im={:?} ac={:?} val={:?} opts={:?}",
                    fl.input_type,
                    fl.name,
                    fl.labels,
                    fl.required,
                    fl.readonly,
                    fl.min,
                    fl.max,
                    fl.step,
                    fl.minlength,
                    fl.maxlength,
                    fl.pattern,
                    fl.inputmode,
                    fl.autocomplete,
                    fl.value,
                    fl.options
                );
            }
        }
        println!(
            "  texts: {:?}",
            p.texts
                .iter()
                .map(|t| format!("{}@{},{}", t.text, t.rect.x, t.rect.y))
                .collect::<Vec<_>>()
        );
        println!("  tags: {}", p.tag_sequence.join(" "));
        for a in &p.actions {
            println!(
                "SEL\t{name}\t{}\t{}\t{}",
                a.target.frame, a.target.selector, a.text
            );
        }
    }
}
