/** Changelog production: which changes a table records for streaming readers. */
package io.basalt.changelog;
