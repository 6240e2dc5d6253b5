"""Make a fresh Trac environment with TracAccountManager and seed it.

Run with the Trac venv's python:
    python trac_setup.py ENV_DIR PORT ADMIN_PASSWORD
ENV_DIR must not exist yet. tracd serves it alone (-s), at the site's root.
"""

import sys
from datetime import datetime, timedelta, timezone

from trac.admin.console import run as trac_admin
from trac.env import Environment
from trac.perm import PermissionSystem
from trac.ticket.model import Component, Milestone, Ticket, Version
from trac.web.session import DetachedSession
from trac.wiki.model import WikiPage

envdir, port, adminpw = sys.argv[1], int(sys.argv[2]), sys.argv[3]

if trac_admin([envdir, "initenv", "Curio bench project", "sqlite:db/trac.db"]) not in (0, None):
    sys.exit("trac-admin initenv failed")

env = Environment(envdir)
cfg = env.config
# Form login by TracAccountManager, accounts in an htdigest file of the environment.
for name, state in (
    ("trac.web.auth.loginmodule", "disabled"),
    ("acct_mgr.api.accountmanager", "enabled"),
    ("acct_mgr.htfile.htdigeststore", "enabled"),
    ("acct_mgr.web_ui.loginmodule", "enabled"),
    ("acct_mgr.web_ui.accountmodule", "enabled"),
    ("acct_mgr.register.registrationmodule", "enabled"),
    ("acct_mgr.register.basiccheck", "enabled"),
    ("acct_mgr.register.emailcheck", "enabled"),
    ("acct_mgr.register.regexpcheck", "enabled"),
    ("acct_mgr.register.usernamepermcheck", "enabled"),
    ("acct_mgr.admin.useradminpanel", "enabled"),
    ("acct_mgr.admin.configurationadminpanel", "enabled"),
):
    cfg.set("components", name, state)
cfg.set("account-manager", "password_store", "HtDigestStore")
cfg.set("account-manager", "htdigest_file", "htdigest")
cfg.set("account-manager", "htdigest_realm", "trac")
cfg.set("account-manager", "register_check",
        "BasicCheck, EmailCheck, RegExpCheck, UsernamePermCheck")
cfg.set("account-manager", "force_passwd_change", "false")
# The bench logs in as admin all run long: the account must outlive the exploring.
cfg.set("account-manager", "allow_delete_account", "false")
cfg.set("account-manager", "persistent_sessions", "true")
cfg.set("trac", "base_url", "http://127.0.0.1:%d/" % port)
cfg.set("header_logo", "src", "common/trac_banner.png")
cfg.set("header_logo", "alt", "Curio bench project")
cfg.set("header_logo", "link", "http://127.0.0.1:%d/" % port)
cfg.set("logging", "log_type", "file")
cfg.set("logging", "log_level", "WARNING")
cfg.set("notification", "smtp_enabled", "false")
cfg.save()
open(env.path + "/htdigest", "a").close()

env = Environment(envdir)  # reload with the plugin's components on
from acct_mgr.api import AccountManager  # noqa: E402 (needs the environment's plugins)

users = [
    ("admin", adminpw, "Admin Istrator"),
    ("alice", "alice", "Alice Liddell"),
    ("bob", "bob", "Bob Builder"),
    ("carol", "carol", "Carol Danvers"),
]
am = AccountManager(env)
for user, password, real in users:
    am.set_password(user, password)
    s = DetachedSession(env, user)
    s["name"] = real
    s["email"] = "%s@example.com" % user
    s.save()
perm = PermissionSystem(env)
perm.grant_permission("admin", "TRAC_ADMIN")
perm.grant_permission("carol", "MILESTONE_ADMIN")
perm.grant_permission("carol", "TICKET_ADMIN")

# The defaults of initenv, replaced by a project's own.
for c in Component.select(env):
    c.delete()
for m in Milestone.select(env, include_completed=True):
    m.delete()
for v in Version.select(env):
    v.delete()

now = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)
for name, owner, desc in (
    ("backend", "alice", "Server, database, API"),
    ("frontend", "bob", "Pages, forms, scripts"),
    ("documentation", "carol", "Guides and reference"),
    ("build", "alice", "Packaging and CI"),
):
    c = Component(env)
    c.name, c.owner, c.description = name, owner, desc
    c.insert()
for name, due, done, desc in (
    ("1.0", now - timedelta(days=60), now - timedelta(days=58), "First stable release."),
    ("1.1", now + timedelta(days=30), None,
     "Search and export.\n\n * CSV export\n * faster search"),
    ("2.0", now + timedelta(days=180), None, "New storage engine."),
):
    m = Milestone(env)
    m.name, m.due, m.completed, m.description = name, due, done, desc
    m.insert()
for name, when in (("1.0", now - timedelta(days=58)), ("1.1-beta", now - timedelta(days=5))):
    v = Version(env)
    v.name, v.time = name, when
    v.insert()

tickets = [
    ("Crash when saving an empty form", "defect", "critical", "backend", "1.1", "alice",
     "accepted", "Saving the settings form with no values gives a traceback.",
     ["Reproduced on trunk.", "Patch attached soon."]),
    ("Search is slow on large projects", "defect", "major", "backend", "1.1", "alice",
     "assigned", "A search over 10,000 tickets takes 20 s.", ["The index is not used."]),
    ("Add CSV export of reports", "enhancement", "major", "frontend", "1.1", "bob",
     "new", "Users want to download a report as CSV.", []),
    ("Typo in the installation guide", "defect", "trivial", "documentation", "1.0",
     "carol", "closed", "'recieve' should be 'receive'.", ["Fixed in [wiki:InstallGuide]."]),
    ("Date picker shows the wrong month", "defect", "minor", "frontend", "1.1", "bob",
     "new", "On the 31st the picker jumps to the next month.", []),
    ("Package for Debian", "task", "major", "build", "2.0", "alice", "new",
     "Provide a .deb with a systemd unit.", ["Needs a maintainer."]),
    ("Session cookie lacks the Secure flag", "defect", "blocker", "backend", "1.1",
     "carol", "reopened", "Behind TLS the session cookie is sent without Secure.",
     ["Fixed.", "Reopened: the fix missed the auth cookie."]),
    ("Keyboard navigation skips the submit button", "defect", "major", "frontend", "2.0",
     "", "new", "Tabbing through the ticket form never reaches Submit.", []),
    ("Document the REST API", "task", "minor", "documentation", "2.0", "carol", "new",
     "Every endpoint with an example request.", []),
    ("Memory grows with every request", "defect", "critical", "backend", "1.0", "alice",
     "closed", "RSS grows by 1 MB per request.", ["A cache was never evicted.", "Verified."]),
    ("Unicode title breaks the timeline", "defect", "major", "frontend", "1.1", "",
     "new", "A summary like 'Grüße – ☃' breaks the timeline RSS.", []),
    ("Faster test suite", "enhancement", "minor", "build", "", "bob", "new",
     "Run the tests in parallel.", []),
]
for i, (summary, ttype, prio, comp, ms, owner, status, desc, comments) in enumerate(tickets):
    t = Ticket(env)
    t.populate({"summary": summary, "type": ttype, "priority": prio, "component": comp,
                "milestone": ms, "owner": owner, "status": "new", "description": desc,
                "reporter": users[i % len(users)][0], "keywords": "bench seed",
                "cc": "admin"})
    when = now - timedelta(days=40 - i * 3)
    t.insert(when=when)
    for j, text in enumerate(comments):
        t.save_changes(users[(i + j + 1) % len(users)][0], text,
                       when=when + timedelta(hours=j + 1))
    if status != "new":
        t["status"] = status
        if status == "closed":
            t["resolution"] = "fixed"
        t.save_changes(owner or "admin", "Status: " + status,
                       when=when + timedelta(hours=len(comments) + 1))

pages = {
    "InstallGuide": "= Installation =\n\n 1. Unpack.\n 1. Run `setup`.\n 1. Open "
                    "http://127.0.0.1/ and log in.\n\nSee also RoadmapNotes and #4.",
    "RoadmapNotes": "= Roadmap notes =\n\n||= Release =||= Theme =||\n|| 1.1 || Search ||\n"
                    "|| 2.0 || Storage ||\n\nOpen questions: #3, #6.",
    "TeamContacts": "= Team =\n\n * Alice: backend\n * Bob: frontend\n * Carol: docs\n\n"
                    "[[TicketQuery(status=!closed,format=table)]]",
    "MeetingNotes/2024-04-15": "= Meeting 2024-04-15 =\n\n * Agreed: 1.1 ships in June.\n"
                               " * {{{code}}} freeze two weeks before.\n\n[[TOC]]",
}
for name, text in pages.items():
    p = WikiPage(env, name)
    p.text = text
    p.save("alice", "Seeded page", now)
wp = WikiPage(env, "InstallGuide")
wp.text += "\n\nUpdated for 1.1."
wp.save("bob", "Second version", now + timedelta(hours=1))

env.shutdown()
print("trac environment ready in %s" % envdir)
