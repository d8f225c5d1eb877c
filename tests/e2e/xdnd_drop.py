#!/usr/bin/python3
"""xdnd_drop.py WINDOW X Y PATH: drops the file PATH on the X11 window WINDOW at (X, Y) (root
coordinates) as a file manager does, through the XDND protocol (version 5): the real drag and
drop a user makes, which xdotool cannot. Exits 0 once the target says it finished, 1 if the
target refused the drop or did not answer within 10 s."""
import sys
import time
import urllib.parse

from Xlib import X, Xatom, display, protocol

target_id, x, y, path = int(sys.argv[1], 0), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
d = display.Display()
root = d.screen().root
atom = lambda name: d.intern_atom(name)
XdndAware, XdndSelection = atom("XdndAware"), atom("XdndSelection")
XdndEnter, XdndPosition, XdndStatus = atom("XdndEnter"), atom("XdndPosition"), atom("XdndStatus")
XdndDrop, XdndFinished, XdndActionCopy = atom("XdndDrop"), atom("XdndFinished"), atom("XdndActionCopy")
uri_list = atom("text/uri-list")
target = d.create_resource_object("window", target_id)
source = root.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
source.set_selection_owner(XdndSelection, X.CurrentTime)
payload = ("file://" + urllib.parse.quote(path) + "\r\n").encode()


def send(kind, data):
    event = protocol.event.ClientMessage(window=target, client_type=kind, data=(32, data))
    target.send_event(event, event_mask=0)
    d.flush()


def wait_for(kind, seconds=10.0):
    """Serves selection requests until a ClientMessage of this kind arrives."""
    deadline = time.time() + seconds
    while time.time() < deadline:
        while d.pending_events():
            event = d.next_event()
            if event.type == X.SelectionRequest:
                requestor = event.requestor
                requestor.change_property(event.property, event.target, 8, payload)
                notify = protocol.event.SelectionNotify(
                    time=event.time, requestor=requestor, selection=event.selection,
                    target=event.target, property=event.property)
                requestor.send_event(notify)
                d.flush()
            elif event.type == X.ClientMessage and event.client_type == kind:
                return event
        time.sleep(0.01)
    return None


send(XdndEnter, [source.id, 5 << 24, uri_list, 0, 0])
send(XdndPosition, [source.id, 0, (x << 16) | y, X.CurrentTime, XdndActionCopy])
status = wait_for(XdndStatus)
if status is None or not (status.data[1][1] & 1):
    print("xdnd_drop: the window did not accept the drop", file=sys.stderr)
    sys.exit(1)
send(XdndDrop, [source.id, 0, X.CurrentTime, 0, 0])
if wait_for(XdndFinished) is None:
    print("xdnd_drop: no XdndFinished from the window", file=sys.stderr)
    sys.exit(1)
sys.exit(0)
