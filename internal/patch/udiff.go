package patch

// UnifiedDiff diffs old and new line by line and lays the result out as a
// unified diff with 3 lines of context, the same layout previews use. added
// and deleted say the file did not exist before or does not exist after
// (the header then names /dev/null). It returns "" when nothing differs.
func UnifiedDiff(oldPath, newPath, old, new string, added, deleted bool) (diff string, linesAdded, linesRemoved int) {
	if old == new {
		return "", 0, 0
	}
	return unifiedDiff(oldPath, newPath, lineDiff(old, new), added, deleted)
}
