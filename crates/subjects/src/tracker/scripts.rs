//! Inline JS shared by every page (toast, sidebar, clock, the running timer) and the
//! helpers that hand server data to a page's script.
//!
//! Page scripts are plain string constants; data reaches them through a `var NAME =
//! {json};` prelude, and the id of a seeded fault through a `%FAULT%` placeholder, so
//! that the script that beacons a fault names it literally.

/// The layout's script: toast, collapsible sidebar (remembered on the device), a clock
/// in the display timezone chosen in the profile (remembered on the device) that ticks
/// every second, and the running timer's indicator (kept for the browser tab).
pub(crate) const COMMON: &str = r#"<script>
(function () {
  var toastBox = document.getElementById('toast');
  var toastTimer = null;
  window.toast = function (message) {
    toastBox.textContent = message;
    toastBox.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { toastBox.hidden = true; }, 3000);
  };
  if (toastBox.getAttribute('data-message')) window.toast(toastBox.getAttribute('data-message'));

  var toggle = document.getElementById('sidebar-toggle');
  var collapsed = false;
  try { collapsed = localStorage.getItem('tracker-sidebar') === 'collapsed'; } catch (_) {}
  function showSidebar() {
    document.body.classList.toggle('collapsed', collapsed);
    toggle.setAttribute('aria-expanded', collapsed ? 'false' : 'true');
    toggle.textContent = collapsed ? 'Expand sidebar' : 'Collapse sidebar';
  }
  showSidebar();
  toggle.addEventListener('click', function () {
    collapsed = !collapsed;
    try { localStorage.setItem('tracker-sidebar', collapsed ? 'collapsed' : 'open'); } catch (_) {}
    showSidebar();
  });

  window.trackerZone = function () {
    try { return localStorage.getItem('tracker-tz') || 'UTC'; } catch (_) { return 'UTC'; }
  };
  window.trackerTimer = {
    read: function () {
      try {
        var t = JSON.parse(sessionStorage.getItem('tracker-timer') || 'null');
        if (t && typeof t.task === 'number' && typeof t.key === 'string' && typeof t.started === 'number') return t;
      } catch (_) {}
      return null;
    },
    start: function (task, key) {
      try { sessionStorage.setItem('tracker-timer', JSON.stringify({ task: task, key: key, started: Date.now() })); } catch (_) {}
    },
    clear: function () {
      try { sessionStorage.removeItem('tracker-timer'); } catch (_) {}
    }
  };

  var clock = document.getElementById('clock');
  var indicator = document.getElementById('timer-indicator');
  function pad(n) { return (n < 10 ? '0' : '') + n; }
  function tick() {
    var now = new Date();
    try {
      clock.textContent = new Intl.DateTimeFormat('en-GB', {
        timeZone: trackerZone(), weekday: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit'
      }).format(now);
    } catch (_) {
      clock.textContent = now.toTimeString().slice(0, 8);
    }
    var timer = trackerTimer.read();
    if (timer) {
      var s = Math.max(0, Math.floor((now.getTime() - timer.started) / 1000));
      indicator.hidden = false;
      indicator.href = '/tasks/' + timer.task;
      indicator.textContent = '⏱ ' + timer.key + ' ' + pad(Math.floor(s / 3600)) + ':' + pad(Math.floor(s / 60) % 60) + ':' + pad(s % 60);
    } else {
      indicator.hidden = true;
    }
  }
  tick();
  setInterval(tick, 1000);
})();
</script>"#;

/// JSON that is safe inside an inline `<script>`: no `</script>`, no HTML comment
/// openers, whatever users typed.
pub(crate) fn json(value: &serde_json::Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// `<script>var NAME = {json};</script>`.
pub(crate) fn data(name: &str, value: &serde_json::Value) -> String {
    format!("<script>\nvar {name} = {};\n</script>", json(value))
}

/// `script` with its `%FAULT%` placeholders naming fault `id`.
pub(crate) fn with_fault(script: &str, id: &str) -> String {
    script.replace("%FAULT%", id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_cannot_close_the_script() {
        let v = serde_json::json!({ "t": "</script><!-- & \u{2028}" });
        let out = json(&v);
        assert!(!out.contains('<') && !out.contains('>') && !out.contains('&'));
        let back: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(back, v);
        assert_eq!(
            data("X", &serde_json::json!(1)),
            "<script>\nvar X = 1;\n</script>"
        );
        assert_eq!(with_fault("curioTruth('%FAULT%')", "F"), "curioTruth('F')");
    }
}
