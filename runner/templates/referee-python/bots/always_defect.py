"""always_defect: the simplest bot there is; it never reads its history."""

print("D")
