"""Whole-document and across-files answers: the map plan over page ranges, the points, the reduce."""
