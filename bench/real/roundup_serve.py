"""roundup-server, allowed to run as root (the bench machine's only user).

roundup-server refuses to run as root unless told a user to switch to; a local bench
has no such user, so the check is switched off. Arguments are roundup-server's.
"""

import sys

from roundup.scripts import roundup_server

roundup_server.setuid = lambda user: None
sys.argv[0] = "roundup-server"
roundup_server.run()
