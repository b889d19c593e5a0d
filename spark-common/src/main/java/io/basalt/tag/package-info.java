/**
 * Tag lifecycle beyond the tag files themselves: automatic tag creation after commits, retention by
 * time and by count, deleting tags with the files only they kept alive, and the operations of the
 * tag procedures.
 */
package io.basalt.tag;
