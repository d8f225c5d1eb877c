"""The C++ files of a folder of the repository, for the source checks (check_layers.py,
check_sizes.py, check_controls.py): paths relative to the repository, with "/", sorted."""
import os


def cpp_files(root, folder, endings=(".h", ".cpp")):
    out = []
    for base, _, names in os.walk(os.path.join(root, folder)):
        for name in names:
            if name.endswith(endings):
                out.append(os.path.relpath(os.path.join(base, name), root).replace(os.sep, "/"))
    return sorted(out)
