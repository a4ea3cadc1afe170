# A drag source for the desktop tests, as a file manager is one: a small
# GTK 3 window at X,Y whose button offers FILE as text/uri-list over XDND.
# Usage: /usr/bin/python3 dragsource.py FILE X Y (needs python3-gi and
# gir1.2-gtk-3.0). Prints "ready" once shown and "drag-end" after a drag.
import sys

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402  (after require_version)

path, x, y = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
uri = GLib.filename_to_uri(path, None)

win = Gtk.Window(title="gatehouse drag source")
win.set_default_size(160, 120)
win.move(x, y)
button = Gtk.Button(label="drag me")
button.drag_source_set(Gdk.ModifierType.BUTTON1_MASK, [], Gdk.DragAction.COPY)
button.drag_source_add_uri_targets()
button.connect("drag-data-get", lambda _w, _c, data, _i, _t: data.set_uris([uri]))
button.connect("drag-end", lambda *_: print("drag-end", flush=True))
win.add(button)
win.connect("destroy", Gtk.main_quit)
win.show_all()


def shown():
    print("ready", flush=True)
    return False


GLib.timeout_add(200, shown)
Gtk.main()
