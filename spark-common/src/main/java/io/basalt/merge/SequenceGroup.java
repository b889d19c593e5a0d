package io.basalt.merge;

import java.util.List;

/**
 * A partial-update sequence group from option {@code fields.<s1,s2>.sequence-group} = {@code
 * 'a,b'}: columns {@code a} and {@code b} take the values of the version whose sequence fields
 * {@code s1, s2} are highest, independently of other groups.
 *
 * @param optionKey the option that defines the group, for messages
 * @param sequenceFields the sequence fields, compared in order
 * @param fields the columns the group updates (without the sequence fields)
 */
record SequenceGroup(String optionKey, List<String> sequenceFields, List<String> fields) {
  static final String SUFFIX = ".sequence-group";

  SequenceGroup {
    sequenceFields = List.copyOf(sequenceFields);
    fields = List.copyOf(fields);
  }

  /** Whether {@code column} is updated by this group, as a sequence field or a member. */
  boolean covers(String column) {
    return sequenceFields.contains(column) || fields.contains(column);
  }
}
