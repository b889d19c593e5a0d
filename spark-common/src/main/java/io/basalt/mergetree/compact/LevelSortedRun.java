package io.basalt.mergetree.compact;

/** A sorted run and the level it lives in. */
public record LevelSortedRun(int level, SortedRun run) {}
