enum _PlaceholderEvidenceInspection {}
