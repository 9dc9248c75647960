"""One Kivy screen per module, each with its kv file beside it."""
