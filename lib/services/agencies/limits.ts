/** Reference photos per subject: uploaded portraits plus the reference_photo_url (a roster fact the matching product reads). */
export const MAX_REFERENCE_PORTRAITS = 5;
