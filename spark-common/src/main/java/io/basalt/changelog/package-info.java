/**
 * Changelog production (which changes a table records for streaming readers) and Paimon's decoupled
 * changelog metadata, which lets those changes outlive their snapshots.
 */
package io.basalt.changelog;
