"""augment"""
