"""evaldata"""
