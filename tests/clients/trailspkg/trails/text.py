from lantable.plugins import hookimpl


@hookimpl
def game_describe_event(view, seat, event, names):
    return f"{names[seat]} walks on"
