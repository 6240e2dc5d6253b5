"""Make a fresh Roundup tracker (devel template, sqlite) and seed it.

Run with the Roundup venv's python:
    python roundup_setup.py HOME PORT ADMIN_PASSWORD
HOME must not exist yet. The tracker is served as /tracker/ by roundup-server.
"""

import datetime
import os
import sys

from roundup import configuration, init, instance, password
from roundup.date import Date

home, port, adminpw = sys.argv[1], int(sys.argv[2]), sys.argv[3]
template = os.path.join(sys.prefix, "share", "roundup", "templates", "devel")

# The template's defaults, then what a local bench needs.
template_cfg = configuration.UserConfig(os.path.join(template, "config_ini.ini"))
config = configuration.CoreConfig(settings={i.name: i.get() for i in template_cfg.items()})
config["TRACKER_HOME"] = home
config["TRACKER_NAME"] = "Curio bench tracker"
config["TRACKER_WEB"] = "http://127.0.0.1:%d/tracker/" % port
config["RDBMS_BACKEND"] = "sqlite"
config["DATABASE"] = "db"
config["MAIL_DOMAIN"] = "localhost"
# Outgoing mail goes to a file, never to an SMTP server.
config["MAIL_DEBUG"] = os.path.join(home, "mail.log")
config["WEB_DEBUG"] = False
# Curio logs in before every episode; Roundup's default allows 3 logins a minute.
config["WEB_LOGIN_ATTEMPTS_MIN"] = 0
config["WEB_REGISTRATION_DELAY"] = 0
config["INSTANT_REGISTRATION"] = True
# Cheaper password hashing (the enforced minimum is 1000 rounds): seeding and every
# login stay fast on a 2-core machine.
config["PASSWORD_PBKDF2_DEFAULT_ROUNDS"] = 10000

init.install(home, template)
# No nosy e-mail (the demo tracker removes it the same way).
for name in ("nosyreaction.py", "nosyreaction.pyc"):
    path = os.path.join(home, "detectors", name)
    if os.path.exists(path):
        os.remove(path)
config.save(os.path.join(home, config.INI_FILE))

tracker = instance.open(home)
tracker.init(password.Password(adminpw, config=config))

db = tracker.open("admin")


def pw(p):
    return password.Password(p, config=db.config)


# The template made admin, anonymous, user, developer, coordinator (no passwords).
for name, real, org in (
    ("user", "Ursula User", "Example Corp"),
    ("developer", "Devon Developer", "Example Corp"),
    ("coordinator", "Cora Coordinator", "Example Corp"),
):
    uid = db.user.lookup(name)
    db.user.set(uid, password=pw(name), realname=real, organisation=org,
                address="%s@example.com" % name)
alice = db.user.create(username="alice", password=pw("alice"), realname="Alice Liddell",
                       address="alice@example.com", roles="User, Developer",
                       organisation="Wonderland Ltd", phone="+44 20 7946 0001")
bob = db.user.create(username="bob", password=pw("bob"), realname="Bob Builder",
                     address="bob@example.com", roles="User")
carol = db.user.create(username="carol", password=pw("carol"), realname="Carol Danvers",
                       address="carol@example.com", roles="User, Developer, Coordinator")
admin = db.user.lookup("admin")
db.user.set(admin, realname="Admin Istrator", address="admin@example.com")
dev = db.user.lookup("developer")

for name, desc in (
    ("ui", "User interface"),
    ("performance", "Slow pages, memory use"),
    ("regression", "Worked before"),
    ("easy", "Good first bug"),
    ("needs-test", "Lacks a test case"),
):
    db.keyword.create(name=name, description=desc)
kw = lambda *names: [db.keyword.lookup(n) for n in names]

db.vcs_repo.create(name="main", host="localhost", path="/srv/git/main",
                   webview_url="http://127.0.0.1/")

bugs = [
    ("Crash when saving an empty form", "crash", ["backend"], "critical", "urgent", "open",
     alice, ("regression",), ["devel"],
     ["Saving the settings form with all fields empty crashes the server.",
      "Confirmed on devel; the traceback points at the validator.",
      "I have a patch in progress."]),
    ("Search results page is slow", "resource usage", ["backend"], "major", "high", "new",
     bob, ("performance",), ["1.1", "1.2"],
     ["Searching for a common word takes 20 seconds.",
      "The full-text index is not used for phrase queries."]),
    ("Typo in the installation guide", "behavior", ["documentation"], "minor", "low",
     "closed", carol, ("easy",), ["1.0"],
     ["'recieve' should be 'receive' in section 3.", "Fixed in the docs."]),
    ("Date picker shows the wrong month", "behavior", ["frontend"], "normal", "normal",
     "open", alice, ("ui",), ["1.2"],
     ["Opening the calendar on the 31st jumps to the next month."]),
    ("Add CSV export of issue lists", "rfe", ["frontend", "backend"], "normal", "normal",
     "pending", None, (), ["devel"],
     ["It would help to export the current index view as CSV.",
      "Which columns should be exported?"]),
    ("Compiler warning in the C extension", "compile error", ["backend"], "minor", "low",
     "new", dev, ("easy", "needs-test"), ["1.3"],
     ["gcc 12 warns about a signed/unsigned comparison."]),
    ("Session cookie lacks the Secure flag", "security", ["backend"], "urgent",
     "immediate", "open", carol, ("regression",), ["1.3", "1.4"],
     ["Behind TLS the session cookie is still sent without Secure.",
      "We need a config option for this."]),
    ("Specification unclear about time zones", "behavior", ["specification"], "normal",
     "normal", "new", None, (), [],
     ["Section 4.2 does not say which time zone dates are stored in."]),
    ("Keyboard navigation skips the submit button", "behavior", ["frontend"], "major",
     "high", "open", bob, ("ui", "needs-test"), ["1.4"],
     ["Tabbing through the issue form never reaches Submit."]),
    ("Memory grows with every request", "resource usage", ["backend"], "critical",
     "urgent", "closed", alice, ("performance", "regression"), ["1.2"],
     ["RSS grows by 1 MB per request under load.",
      "A cache was never evicted; fixed.", "Verified on the staging server."]),
    ("Unicode title breaks the index page", "crash", ["frontend"], "major", "high", "new",
     None, ("ui",), ["devel"],
     ["A title like 'Grüße – ☃' makes the index page fail to render."]),
]
authors = [admin, alice, bob, carol, dev]
t0 = datetime.datetime(2024, 3, 1, 9, 0)
bug_ids = []
for i, (title, btype, comps, sev, prio, status, assignee, kws, vers, texts) in enumerate(bugs):
    msgs = []
    for j, text in enumerate(texts):
        when = t0 + datetime.timedelta(days=i * 3 + j, hours=j)
        msgs.append(db.msg.create(content=text, author=authors[(i + j) % len(authors)],
                                  date=Date(when.strftime("%Y-%m-%d.%H:%M:%S"))))
    props = dict(title=title, type=db.bug_type.lookup(btype),
                 components=[db.component.lookup(c) for c in comps],
                 versions=[db.version.lookup(v) for v in vers],
                 severity=db.severity.lookup(sev), priority=db.priority.lookup(prio),
                 status=db.status.lookup(status), keywords=kw(*kws), messages=msgs,
                 nosy=[authors[i % len(authors)], admin])
    if assignee:
        props["assignee"] = assignee
    if status == "closed":
        props["resolution"] = db.resolution.lookup("fixed")
    bug_ids.append(db.bug.create(**props))
db.bug.set(bug_ids[1], dependencies=[bug_ids[9]])
db.bug.set(bug_ids[10], superseder=bug_ids[3])

tasks = [
    ("Write release notes for 1.4", "open", [alice], bug_ids[6]),
    ("Set up nightly benchmark", "new", [bob, dev], bug_ids[1]),
    ("Review the accessibility audit", "pending", [carol], bug_ids[8]),
]
task_ids = []
for title, status, assignees, solves in tasks:
    task_ids.append(db.task.create(
        title=title, status=db.status.lookup(status), assignee=assignees, solves=solves,
        priority=db.priority.lookup("normal"),
        messages=[db.msg.create(content="Task: " + title, author=admin,
                                date=Date("2024-04-01.10:00:00"))]))

db.milestone.create(title="Release 1.4", status=db.status.lookup("open"),
                    release_date="2024-06-30", bugs=bug_ids[:5], tasks=task_ids[:2])
db.milestone.create(title="Release 1.5", status=db.status.lookup("new"),
                    release_date="2024-12-31", bugs=bug_ids[5:9], tasks=task_ids[2:])

db.commit()
db.close()
print("roundup tracker ready in %s" % home)
